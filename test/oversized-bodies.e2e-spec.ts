import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A body over the 16 KiB limit is refused with 413 before it is read, and the
 * client must be able to read that refusal: a Node `http` client still writing
 * its body when the answer comes got EPIPE or ECONNRESET instead, about one run
 * in three, when the service closed the connection at once (its unread bytes
 * made the kernel reset it). Many runs, on kept-alive and fresh connections.
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
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_ENABLED: 'false' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it.each([
    ['16,385 bytes', 16 * 1024 + 1, true],
    ['16,385 bytes', 16 * 1024 + 1, false],
    ['4 MiB', 4 * MiB, true],
    ['4 MiB', 4 * MiB, false],
  ])(
    'answers %s with a readable 413 every time (keep-alive: %s)',
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
