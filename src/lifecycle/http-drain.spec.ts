import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDrain } from './http-drain.js';

interface Reply {
  status: number;
  connection: string | undefined;
  body: string;
}

/** A server whose `/slow?ms=N` answers after N ms, and everything else at once. */
async function startServer(): Promise<{ server: Server; drain: HttpDrain; port: number }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    const timer = setTimeout(() => res.end(`done ${req.url}`), ms);
    res.once('close', () => clearTimeout(timer));
  });
  const drain = new HttpDrain(server, { idleCloseMs: 100, pollMs: 10 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, drain, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent?: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the server has `count` requests in flight (they were sent, not yet received): no fixed delay to outlast. */
async function arrived(drain: HttpDrain, count: number): Promise<void> {
  for (const started = Date.now(); drain.inFlight < count; await sleep(5)) {
    if (Date.now() - started > 10_000) throw new Error(`${drain.inFlight} of ${count} requests arrived within 10 s`);
  }
}

describe('HttpDrain', () => {
  const agents: Agent[] = [];
  const keepAlive = () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    agents.push(agent);
    return agent;
  };
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
  });

  it('lets in-flight requests finish, with Connection: close, and reports them', async () => {
    const { drain, port } = await startServer();
    const agent = keepAlive();
    const slow = [get(port, '/slow?ms=1000', agent), get(port, '/slow?ms=800', agent)];
    await arrived(drain, 2);
    expect(drain.inFlight).toBe(2);
    const report = await drain.drain(5_000);
    const replies = await Promise.all(slow);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies.map((r) => r.connection)).toEqual(['close', 'close']);
    expect(report).toMatchObject({ inFlightAtStart: 2, cutConnections: 0 });
    expect(report.durationMs).toBeLessThan(5_000);
  });

  it('refuses new connections once draining', async () => {
    const { drain, port } = await startServer();
    const agent = keepAlive();
    const slow = get(port, '/slow?ms=300', agent);
    await arrived(drain, 1);
    const drained = drain.drain(5_000);
    await expect(get(port, '/fresh')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect((await slow).status).toBe(200);
    await drained;
  });

  it('serves a request that arrives on an open keep-alive connection during the drain, then closes it', async () => {
    const { drain, port } = await startServer();
    const agent = keepAlive();
    expect((await get(port, '/warm', agent)).connection).toBe('keep-alive');
    const drained = drain.drain(5_000);
    // The connection is idle but still open: a request sent now is served, not reset.
    const reply = await get(port, '/late', agent);
    expect(reply).toEqual({ status: 200, connection: 'close', body: 'done /late' });
    const report = await drained;
    expect(report).toMatchObject({ inFlightAtStart: 0, servedDuringDrain: 1, cutConnections: 0 });
  });

  it('closes keep-alive connections that stay idle, without waiting for the grace period', async () => {
    const { drain, port } = await startServer();
    const agent = keepAlive();
    await get(port, '/warm', agent);
    const report = await drain.drain(10_000);
    expect(report).toMatchObject({ connectionsAtStart: 1, cutConnections: 0 });
    expect(report.durationMs).toBeLessThan(2_000);
  });

  it('cuts what is still running when the grace period ends', async () => {
    const { drain, port } = await startServer();
    const stuck = get(port, '/slow?ms=5000', keepAlive());
    await arrived(drain, 1);
    const report = await drain.drain(200);
    expect(report).toMatchObject({ inFlightAtStart: 1, cutConnections: 1 });
    await expect(stuck).rejects.toThrow();
  });

  it('cuts at once when told to (a second signal)', async () => {
    const { drain, port } = await startServer();
    const stuck = get(port, '/slow?ms=5000', keepAlive());
    await arrived(drain, 1);
    const drained = drain.drain(60_000);
    drain.cut();
    expect(await drained).toMatchObject({ cutConnections: 1 });
    await expect(stuck).rejects.toThrow();
  });
});
