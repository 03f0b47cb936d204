import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { carryHeadLines, FixedHeaderLines, setFixedHeaders, takesHeadLines } from './head-lines.js';

const SECURITY = new FixedHeaderLines([
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
]);

class LinesResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
carryHeadLines(LinesResponse.prototype);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(responses: typeof ServerResponse, handler: Handler): Promise<Server> {
  const server = createServer({ ServerResponse: responses }, (req, res) => {
    setFixedHeaders(res, 'security', SECURITY);
    handler(req, res);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return server;
}

/** The raw head of the answer to one request (`method` on `/`), as the server wrote it, line by line. */
async function rawHead(server: Server, method = 'GET', extra = ''): Promise<string[]> {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((closed) => server.close(closed)))));

async function headOf(responses: typeof ServerResponse, handler: Handler, method?: string, extra?: string) {
  const server = await serve(responses, handler);
  servers.push(server);
  return rawHead(server, method, extra);
}

describe('FixedHeaderLines', () => {
  it('refuses a field setHeader would refuse', () => {
    expect(() => new FixedHeaderLines([['Bad Name', 'x']])).toThrow();
    expect(() => new FixedHeaderLines([['X-Ok', 'line\r\nX-Injected: 1']])).toThrow();
  });
});

describe('head lines', () => {
  const answers: Record<string, [method: string, extra: string, Handler]> = {
    'a 200 with a body': ['GET', '', (_req, res) => res.setHeader('Vary', 'X-API-Key').end('{}')],
    'a HEAD': ['HEAD', '', (_req, res) => res.end()],
    'a 304': ['GET', 'If-None-Match: "a"\r\n', (_req, res) => res.writeHead(304).end()],
    'an error with headers passed to writeHead': [
      'GET',
      '',
      (_req, res) => res.writeHead(404, { 'Content-Type': 'application/json' }).end('{}'),
    ],
  };

  it.each(Object.entries(answers))(
    'are written once, right after the status line, on %s',
    async (_name, [method, extra, handler]) => {
      const lines = await headOf(LinesResponse, handler, method, extra);
      expect(lines.slice(1, 3)).toEqual(['X-Frame-Options: DENY', 'X-Content-Type-Options: nosniff']);
      expect(lines.filter((line) => /^x-frame-options:/i.test(line))).toHaveLength(1);
      expect(lines.slice(3).some((line) => line.startsWith('Date: '))).toBe(true);
    },
  );

  it('are kept by slot, in the order slots were first used: a slot set again is replaced', async () => {
    const lines = await headOf(LinesResponse, (_req, res) => {
      if (!takesHeadLines(res)) throw new Error('expected a response that takes head lines');
      res.setHeadLines('test-a', 'X-A: 1\r\n');
      res.setHeadLines('test-b', 'X-B: 1\r\n');
      res.setHeadLines('test-a', 'X-A: 2\r\n');
      res.end();
    });
    expect(lines.slice(1, 5)).toEqual(['X-Frame-Options: DENY', 'X-Content-Type-Options: nosniff', 'X-A: 2', 'X-B: 1']);
  });

  describe('given as a default (unlessSet)', () => {
    const withDefault =
      (then: Handler): Handler =>
      (req, res) => {
        (res as unknown as { setHeadLines(slot: string, lines: string, unlessSet?: string): void }).setHeadLines(
          'test-cache',
          'Cache-Control: private\r\n',
          'cache-control',
        );
        then(req, res);
      };
    const cacheLines = async (then: Handler) =>
      (await headOf(LinesResponse, withDefault(then))).filter((line) => /^cache-control:/i.test(line));

    it('are written when the response names no such field', async () => {
      expect(await cacheLines((_req, res) => res.setHeader('X-Other', '1').end())).toEqual(['Cache-Control: private']);
      expect(await cacheLines((_req, res) => res.end())).toEqual(['Cache-Control: private']);
    });

    it('give way to the field set with setHeader, in any case', async () => {
      expect(await cacheLines((_req, res) => res.setHeader('cache-CONTROL', 'no-store').end())).toEqual([
        'cache-CONTROL: no-store',
      ]);
    });

    it('give way to the field given to writeHead, as an object or an array, flat or of pairs', async () => {
      const given: unknown[] = [
        { 'Cache-Control': 'no-store' },
        ['Cache-Control', 'no-store'],
        [['Cache-Control', 'no-store']],
      ];
      for (const headers of given) {
        const lines = await cacheLines((_req, res) => res.writeHead(200, headers as never).end());
        expect(lines).toEqual(['Cache-Control: no-store']);
      }
    });
  });

  it('are refused once the head is sent, as setHeader is', async () => {
    let refused: unknown;
    await headOf(LinesResponse, (_req, res) => {
      res.end();
      try {
        (res as unknown as { setHeadLines(slot: string, lines: string): void }).setHeadLines('late', 'X-Late: 1\r\n');
      } catch (error) {
        refused = error;
      }
    });
    expect(refused).toBeInstanceOf(Error);
  });

  it('fall back to setHeader, one by one, on a response of another class', async () => {
    let seen: unknown;
    const lines = await headOf(ServerResponse, (_req, res) => {
      seen = res.getHeader('x-frame-options');
      res.end();
    });
    expect(takesHeadLines(new ServerResponse({} as IncomingMessage))).toBe(false);
    expect(seen).toBe('DENY');
    expect(lines.filter((line) => line === 'X-Frame-Options: DENY')).toHaveLength(1);
  });
});
