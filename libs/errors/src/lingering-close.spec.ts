import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerThenLinger, bodyStillArriving, type LingerLimits } from './lingering-close.js';

const LIMITS: LingerLimits = { maxMs: 1_000, idleMs: 200, maxBytes: 1024 * 1024 };

/** Sends `head`, then `rest` in pieces; resolves with what came back and when the server closed. */
function exchange(port: number, head: string, rest: Buffer, pieceBytes = 64 * 1024) {
  return new Promise<{ received: string; closedAfterMs: number; error?: string }>((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('connect', () => {
      socket.write(head);
      for (let at = 0; at < rest.length; at += pieceBytes) socket.write(rest.subarray(at, at + pieceBytes));
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: Error & { code?: string }) => (error = e.code));
    socket.on('close', () =>
      resolve({ received: Buffer.concat(chunks).toString('latin1'), closedAfterMs: Date.now() - started, error }),
    );
  });
}

describe('answerThenLinger', () => {
  let server: Server;
  let port: number;
  let bodyBytesSeen = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      expect(bodyStillArriving(req)).toBe(true);
      req.on('data', (chunk: Buffer) => (bodyBytesSeen += chunk.length));
      res.statusCode = 413;
      answerThenLinger(req, res, '{"code":"PAYLOAD_TOO_LARGE"}', LIMITS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers at once, reads the rest of the body, then closes', async () => {
    bodyBytesSeen = 0;
    const size = 512 * 1024;
    const result = await exchange(
      port,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`,
      Buffer.alloc(size, 'a'),
    );
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.received).toMatch(/\r\nConnection: close\r\n/i);
    expect(result.received.endsWith('{"code":"PAYLOAD_TOO_LARGE"}')).toBe(true);
    expect(result.error).toBeUndefined();
    expect(bodyBytesSeen).toBe(size);
  });

  it('closes once the client stops sending, without waiting for the declared body', async () => {
    const result = await exchange(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n{',
      Buffer.alloc(0),
    );
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.closedAfterMs).toBeLessThan(LIMITS.maxMs);
  });

  it('reads no more than its byte limit', async () => {
    bodyBytesSeen = 0;
    const size = 4 * 1024 * 1024;
    const result = await exchange(
      port,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`,
      Buffer.alloc(size, 'a'),
    );
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(bodyBytesSeen).toBeLessThan(size);
  });
});
