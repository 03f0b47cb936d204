// A real HTTP receiver of webhooks for the tests: it records every request (headers and
// raw body) and answers what `respond` says (default 204), after `delayMs` if given
// (a message counts as received when it is answered). Plain ESM, so the scripts
// under test/ can use it too; the types are in webhook-receiver.d.mts.
import { createServer } from 'node:http';
import { setTimeout } from 'node:timers';

export async function startReceiver(respond = () => 204, { delayMs = 0 } = {}) {
  const received = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = {
        path: req.url ?? '/',
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body,
      };
      const answer = () => {
        received.push(message);
        res.statusCode = receiver.respond(message);
        res.end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const receiver = {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    received,
    respond,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return receiver;
}
