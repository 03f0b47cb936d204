// The minimal reference of `npm run bench`: plain node:http + pg doing the service's
// work for the measured requests (see work.mjs). Routes: GET /pets, GET /pets/{petId},
// POST /store/orders, GET /health/ready. PORT and DATABASE_URL from the environment.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { setTimeout } from 'node:timers';
import { BODY_LIMIT_BYTES, JSON_CONTENT_TYPE, ReferenceWork, Refusal } from './work.mjs';

const work = new ReferenceWork();

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

function readJson(req) {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    return Promise.reject(new Refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
  }
  return new Promise((done, fail) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        fail(new Refusal(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${BODY_LIMIT_BYTES} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('error', fail);
    req.on('end', () => {
      try {
        done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        fail(new Refusal(400, 'MALFORMED_JSON', 'Request body is not valid JSON'));
      }
    });
  });
}

function decodePathSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new Refusal(400, 'VALIDATION_FAILED', 'Invalid request: the path is not valid percent-encoding');
  }
}

async function handle(req, res) {
  const url = req.url;
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  if (path === '/health/ready' && req.method === 'GET') {
    await work.pool.query('SELECT 1');
    return send(res, 200, { status: 'ok' });
  }
  const secret = req.headers['x-api-key'];
  const scope = req.method === 'GET' ? 'read' : 'write';
  const key = await work.admit(secret, req.socket.remoteAddress, scope, res);
  if (req.method === 'GET' && path === '/pets') {
    return send(res, 200, await work.listPets(url, mark < 0 ? '' : url.slice(mark + 1), res));
  }
  if (req.method === 'GET' && path.startsWith('/pets/') && path.indexOf('/', 6) < 0) {
    return send(res, 200, await work.getPet(decodePathSegment(path.slice(6)), res));
  }
  if (req.method === 'POST' && path === '/store/orders') {
    return send(res, 201, await work.placeOrder(key, await readJson(req), res));
  }
  throw new Refusal(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${path}`);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    if (error instanceof Refusal) {
      if (error.headers) for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      return send(res, error.status, error.body);
    }
    send(res, 500, { code: 'INTERNAL_ERROR', message: 'Unexpected error', status: 500 });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');

const stop = () => {
  server.close(() => work.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
