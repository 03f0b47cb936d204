import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between the app and its database, so a test can take the database
 * away (`stop`: live connections are cut and new ones refused) and bring it back
 * on the same port (`start` again).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;
  private relaying = true;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy in front of the PostgreSQL server of a connection URL. */
  static forUrl(url: string): TcpProxy {
    const parsed = new URL(url);
    return new TcpProxy(parsed.hostname.replace(/^\[|\]$/g, ''), Number(parsed.port || 5432));
  }

  /** The port the proxy listens (or last listened) on. */
  get port(): number {
    return this.boundPort;
  }

  get running(): boolean {
    return this.server !== null;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.boundPort);
    return parsed.toString();
  }

  /**
   * Listens on `port` (default: the previous port, or a free one the first time).
   * With `silent`, it accepts connections but never relays nor answers: a server
   * that packets reach but that does not respond (a hung host, a dropping firewall).
   */
  async start(port = this.boundPort, { silent = false }: { silent?: boolean } = {}): Promise<number> {
    if (this.server) throw new Error('proxy already running');
    this.relaying = !silent;
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('proxy has no address');
    this.boundPort = address.port;
    this.server = server;
    return this.boundPort;
  }

  /**
   * Stops relaying on the live connections without closing them (a server that
   * hangs mid-conversation); connections made from now on are accepted and left unanswered.
   */
  stall(): void {
    this.relaying = false;
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** Stops accepting connections and destroys every live one, in both directions. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private relay(client: Socket): void {
    if (!this.relaying) {
      this.sockets.add(client);
      client.on('error', () => client.destroy());
      client.on('close', () => this.sockets.delete(client));
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
