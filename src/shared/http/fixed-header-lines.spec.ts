import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { carryFixedHeaderLines, FixedHeaderLines, setFixedHeaders } from './fixed-header-lines.js';

class LinesResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
carryFixedHeaderLines(LinesResponse.prototype);

const LINES = new FixedHeaderLines([
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
]);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(responses: typeof ServerResponse, handler: Handler): Promise<Server> {
  const server = createServer({ ServerResponse: responses }, (req, res) => {
    setFixedHeaders(res, LINES);
    handler(req, res);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return server;
}

/** The raw head of the answer to one request (`method` on `/`), as the server wrote it. */
async function rawHead(server: Server, method = 'GET', extra = ''): Promise<string> {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

describe('FixedHeaderLines', () => {
  it('refuses a header setHeader would refuse', () => {
    expect(() => new FixedHeaderLines([['Bad Name', 'x']])).toThrow();
    expect(() => new FixedHeaderLines([['X-Ok', 'line\r\nX-Injected: 1']])).toThrow();
  });
});

describe('setFixedHeaders', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((closed) => server.close(closed)))));

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
    'writes them once, right after the status line, on %s of a response that carries fixed lines',
    async (_name, [method, extra, handler]) => {
      const server = await serve(LinesResponse, handler);
      servers.push(server);
      const lines = (await rawHead(server, method, extra)).split('\r\n');
      expect(lines.slice(1, 3)).toEqual(['X-Frame-Options: DENY', 'X-Content-Type-Options: nosniff']);
      expect(lines.filter((line) => /^x-frame-options:/i.test(line))).toHaveLength(1);
      expect(lines.slice(3).some((line) => line.startsWith('Date: '))).toBe(true);
    },
  );

  it('sets them one by one on a response of another class', async () => {
    let seen: unknown;
    const server = await serve(ServerResponse, (_req, res) => {
      seen = res.getHeader('x-frame-options');
      res.end();
    });
    servers.push(server);
    const lines = (await rawHead(server)).split('\r\n');
    expect(seen).toBe('DENY');
    expect(lines.filter((line) => line === 'X-Frame-Options: DENY')).toHaveLength(1);
  });
});
