import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { loadAppConfig } from '../src/config/app.config.js';
import type { TargetResolver } from '../src/webhooks/domain/ports.js';
import { checkAddresses, checkUrl } from '../src/webhooks/domain/target-rules.js';
import { HttpWebhookTransport, MAX_RESPONSE_BYTES } from '../src/webhooks/infrastructure/http-webhook-transport.js';
import { createTestCa, type TestCa } from './support/test-ca.js';

/** The receivers' name: in no DNS, only the test resolvers answer it (so a delivery connects where they say). */
const HOST = 'receiver.webhooks.test';
const DEADLINE_MS = 400;
/** How late past the deadline an attempt may end on a machine shared with other test runs. */
const TOLERANCE_MS = 600;
const BODY = JSON.stringify({ type: 'ping' });

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A receiver on 127.0.0.1 that counts the connections it accepts and the requests it reads. */
interface TestReceiver {
  readonly port: number;
  readonly connections: number;
  readonly requests: ReadonlyArray<{ readonly path: string; readonly id: string; readonly body: string }>;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<number> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

async function startReceiver(handle: Handler, tls?: TestCa): Promise<TestReceiver> {
  const requests: Array<{ path: string; id: string; body: string }> = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '/', id: String(req.headers['webhook-id'] ?? ''), body });
      handle(req, res, body);
    });
  };
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, onRequest) : createHttpServer(onRequest);
  server.on('connection', () => connections++);
  const port = await listen(server, sockets);
  return {
    port,
    get connections() {
      return connections;
    },
    requests,
    close: () => closeServer(server, sockets),
  };
}

/** A TCP server that accepts connections and never says a word (a TLS handshake with it never ends). */
async function startSilentServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTcpServer(() => connections++);
  const port = await listen(server, sockets);
  return { port, connections: () => connections, close: () => closeServer(server, sockets) };
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((done) => server.close(() => done()));
}

const loopback: TargetResolver = { resolve: async () => ['127.0.0.1'] };

/** The transport as the service builds it, from configuration variables (tests' loopback receivers allowed). */
function transport(env: Record<string, string> = {}, resolver: TargetResolver = loopback): HttpWebhookTransport {
  const config = loadAppConfig({
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOKS_ALLOWED_PORTS: 'any',
    WEBHOOKS_TIMEOUT_MS: String(DEADLINE_MS),
    ...env,
  });
  return new HttpWebhookTransport(resolver, config);
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await work;
  return { result, elapsedMs: performance.now() - started };
}

function expectWithinDeadline(elapsedMs: number): void {
  expect(elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
  expect(elapsedMs).toBeLessThan(DEADLINE_MS + TOLERANCE_MS);
}

const post = (t: HttpWebhookTransport, url: string) => t.post(url, { 'webhook-id': 'msg_test' }, BODY);

describe('the webhook transport over real sockets', () => {
  let ca: TestCa;
  const receivers: TestReceiver[] = [];
  const receiver = async (handle: Handler, tls?: TestCa) => {
    const started = await startReceiver(handle, tls);
    receivers.push(started);
    return started;
  };
  const answer =
    (status: number, headers: Record<string, string> = {}): Handler =>
    (_req, res) => {
      res.writeHead(status, headers).end();
    };

  beforeAll(() => {
    ca = createTestCa(HOST);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    ca.remove();
  });

  describe('https', () => {
    it('delivers to a receiver whose certificate the CA of WEBHOOKS_CA_FILE signed, at the checked address', async () => {
      const r = await receiver(answer(204), ca);
      const result = await post(transport({ WEBHOOKS_CA_FILE: ca.caFile }), `https://${HOST}:${r.port}/hooks`);
      expect(result).toMatchObject({ ok: true, statusCode: 204, error: null, gone: false, retryAfterMs: null });
      expect(r.requests).toEqual([{ path: '/hooks', id: 'msg_test', body: BODY }]);
    });

    it("refuses the receiver's certificate without that CA (Node's default roots only), sending nothing", async () => {
      const r = await receiver(answer(204), ca);
      const result = await post(transport(), `https://${HOST}:${r.port}/hooks`);
      expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/certificate/) });
      expect(r.requests).toHaveLength(0);
    });

    it('refuses a certificate for another name', async () => {
      const r = await receiver(answer(204), ca);
      const other = transport({ WEBHOOKS_CA_FILE: ca.caFile });
      const result = await post(other, `https://other.webhooks.test:${r.port}/hooks`);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/altnames|other\.webhooks\.test/) });
      expect(r.requests).toHaveLength(0);
    });
  });

  it('stops the start-up on a WEBHOOKS_CA_FILE that cannot be read or holds no certificate', () => {
    const notPem = join(dirname(ca.caFile), 'not-a-certificate.txt');
    writeFileSync(notPem, 'hello');
    expect(() => transport({ WEBHOOKS_CA_FILE: join(dirname(ca.caFile), 'missing.pem') })).toThrow(
      /^WEBHOOKS_CA_FILE: cannot read .*missing\.pem/,
    );
    expect(() => transport({ WEBHOOKS_CA_FILE: notPem })).toThrow(/^WEBHOOKS_CA_FILE: .* holds no PEM certificate$/);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const elsewhere = await receiver(answer(204));
    const r = await receiver(answer(307, { location: `http://127.0.0.1:${elsewhere.port}/elsewhere` }));
    const result = await post(transport(), `http://${HOST}:${r.port}/hooks`);
    expect(result).toMatchObject({ ok: false, statusCode: 307, error: 'HTTP 307: redirect not followed', gone: false });
    expect(elsewhere.connections).toBe(0);
  });

  it(`reads at most ${MAX_RESPONSE_BYTES / 1024} KiB of an endless body, then ends the attempt`, async () => {
    let written = 0;
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pour = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on('drain', pour);
      pour();
    });
    const { result, elapsedMs } = await timed(
      post(transport({ WEBHOOKS_TIMEOUT_MS: '10000' }), `http://${HOST}:${r.port}/hooks`),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(elapsedMs).toBeLessThan(2_000); // the cap ended it, not the 10 s deadline
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  describe(`one deadline (WEBHOOKS_TIMEOUT_MS, ${DEADLINE_MS} ms here) over the whole attempt`, () => {
    it('ends an attempt whose receiver trickles an endless body (the status it sent stands)', async () => {
      const r = await receiver((_req, res) => {
        res.writeHead(200);
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 20);
      });
      const { result, elapsedMs } = await timed(post(transport(), `http://${HOST}:${r.port}/hooks`));
      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      expectWithinDeadline(elapsedMs);
    });

    it('ends an attempt whose receiver never answers', async () => {
      const r = await receiver(() => undefined);
      const { result, elapsedMs } = await timed(post(transport(), `http://${HOST}:${r.port}/hooks`));
      expect(result).toMatchObject({ ok: false, statusCode: null, error: `timed out after ${DEADLINE_MS} ms` });
      expect(r.requests).toHaveLength(1);
      expectWithinDeadline(elapsedMs);
      expectWithinDeadline(result.durationMs);
    });

    it('ends an attempt stuck in the TLS handshake', async () => {
      const silent = await startSilentServer();
      try {
        const t = transport({ WEBHOOKS_CA_FILE: ca.caFile });
        const { result, elapsedMs } = await timed(post(t, `https://${HOST}:${silent.port}/hooks`));
        expect(result).toMatchObject({ ok: false, error: `timed out after ${DEADLINE_MS} ms` });
        expect(silent.connections()).toBe(1); // connected: the handshake is what never ended
        expectWithinDeadline(elapsedMs);
      } finally {
        await silent.close();
      }
    });

    it('ends an attempt whose name never resolves', async () => {
      const never: TargetResolver = { resolve: () => new Promise<string[]>(() => undefined) };
      const { result, elapsedMs } = await timed(post(transport({}, never), `https://${HOST}/hooks`));
      expect(result).toMatchObject({ ok: false, error: `timed out after ${DEADLINE_MS} ms` });
      expectWithinDeadline(elapsedMs);
    });
  });

  it('reports a 410 as gone', async () => {
    const r = await receiver(answer(410));
    const result = await post(transport(), `http://${HOST}:${r.port}/hooks`);
    expect(result).toMatchObject({ ok: false, statusCode: 410, error: 'HTTP 410', gone: true, retryAfterMs: null });
  });

  it.each([
    ['429 with Retry-After in seconds', 429, '120', 120_000],
    ['503 with Retry-After as an HTTP-date', 503, 'date:+30', 30_000],
    ['429 with an unparseable Retry-After', 429, 'later', null],
    ['429 without Retry-After', 429, undefined, null],
    ['500 with Retry-After (not a status that sets it)', 500, '120', null],
  ])('reports the wait of a %s', async (_name, status, header, expected) => {
    const value = header?.startsWith('date:')
      ? new Date(Date.now() + Number(header.slice(5)) * 1000).toUTCString()
      : header;
    const r = await receiver(answer(status, value === undefined ? {} : { 'retry-after': value }));
    const result = await post(transport(), `http://${HOST}:${r.port}/hooks`);
    expect(result).toMatchObject({ ok: false, statusCode: status, gone: false });
    if (expected === null) expect(result.retryAfterMs).toBeNull();
    else expect(Math.abs((result.retryAfterMs ?? -1e9) - expected)).toBeLessThanOrEqual(1_000);
  });

  describe('with the production rules (public targets only)', () => {
    it('refuses a name that resolved to a public address at registration and resolves to a private one at delivery; the receiver sees no connection', async () => {
      const r = await receiver(answer(204), ca);
      const answers = [['93.184.215.14'], ['127.0.0.1']]; // DNS rebinding: the second answer differs
      const resolver: TargetResolver = { resolve: async () => answers.shift() ?? [] };
      const config = loadAppConfig({ WEBHOOKS_ALLOWED_PORTS: String(r.port), WEBHOOKS_CA_FILE: ca.caFile }).webhooks;
      const url = `https://${HOST}:${r.port}/hooks`;
      // Registration judges the URL alone, and the name's addresses were public then.
      expect(checkUrl(url, config)).toBeNull();
      expect(checkAddresses(HOST, await resolver.resolve(HOST), config)).toBeNull();

      const result = await post(new HttpWebhookTransport(resolver, { webhooks: config }), url);
      expect(result).toMatchObject({
        ok: false,
        statusCode: null,
        error: `${HOST} resolves to 127.0.0.1, in 127.0.0.0/8, loopback`,
      });
      expect(r.connections).toBe(0);
    });

    it('refuses a name when any of its addresses is private, without connecting to the public one', async () => {
      const r = await receiver(answer(204), ca);
      const resolver: TargetResolver = { resolve: async () => ['93.184.215.14', '::ffff:7f00:1'] };
      const config = loadAppConfig({ WEBHOOKS_ALLOWED_PORTS: String(r.port), WEBHOOKS_CA_FILE: ca.caFile }).webhooks;
      const result = await post(new HttpWebhookTransport(resolver, { webhooks: config }), `https://${HOST}:${r.port}/`);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/IPv4-mapped 127\.0\.0\.1/) });
      expect(r.connections).toBe(0);
    });

    it('refuses a port WEBHOOKS_ALLOWED_PORTS does not list (443 only by default)', async () => {
      const r = await receiver(answer(204), ca);
      const config = loadAppConfig({ WEBHOOKS_CA_FILE: ca.caFile }).webhooks;
      const result = await post(new HttpWebhookTransport(loopback, { webhooks: config }), `https://${HOST}:${r.port}/`);
      expect(result).toMatchObject({ ok: false, error: `port ${r.port} is not allowed (allowed: 443)` });
      expect(r.connections).toBe(0);
    });
  });
});
