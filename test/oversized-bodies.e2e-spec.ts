import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { startUntilReady } from './support/spawn-service.mjs';

/**
 * A body over the 16 KiB limit is refused with 413 before it is read, and the
 * client must be able to read that refusal: a Node `http` client still writing
 * its body when the answer comes got EPIPE or ECONNRESET instead, about one run
 * in three, when the service closed the connection at once (its unread bytes
 * made the kernel reset it). Many runs, on kept-alive and fresh connections,
 * against the built service in a process of its own (as `npm start` runs it):
 * a client in the server's own process does not show the race.
 */
const RUNS = 50;
const MiB = 1024 * 1024;

interface Outcome {
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
}

function post(port: number, bytes: number, agent: Agent | false): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = Buffer.alloc(bytes, 'a');
    body[0] = '{'.charCodeAt(0);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/pets',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': bytes },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
        res.on('error', (error: Error & { code?: string }) => resolve({ error: error.code ?? error.message }));
      },
    );
    // An error after the answer was read (the client's own write cut short) does not change what it read.
    req.on('error', (error: Error & { code?: string }) => resolve({ error: error.code ?? error.message }));
    req.end(body);
  });
}

describe('bodies over the limit (e2e)', () => {
  let service: Awaited<ReturnType<typeof startUntilReady>>;
  let port: number;

  beforeAll(async () => {
    service = await startUntilReady({
      name: 'oversized-bodies',
      env: {
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        SEED_DEMO_DATA: 'false',
        REDIS_URL: '',
        WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'), // the test run's DATABASE_URL requires one
      },
    });
    port = service.port;
  }, 60_000);
  afterAll(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
  });

  it.each([
    ['16,385 bytes, kept-alive connection', 16 * 1024 + 1, true],
    ['16,385 bytes, fresh connections', 16 * 1024 + 1, false],
    ['4 MiB, kept-alive connection', 4 * MiB, true],
    ['4 MiB, fresh connections', 4 * MiB, false],
  ])(
    'answers %s with a readable 413 every time',
    async (_size, bytes, keepAlive) => {
      const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
      const outcomes: Outcome[] = [];
      try {
        for (let run = 0; run < RUNS; run++) outcomes.push(await post(port, bytes, agent));
      } finally {
        if (agent) agent.destroy();
      }
      const failures = outcomes.filter(
        (o) => o.status !== 413 || JSON.parse(o.body ?? '{}').code !== 'PAYLOAD_TOO_LARGE',
      );
      expect(failures).toEqual([]);
    },
    60_000,
  );
});
