import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** What a drain did, for the shutdown log (and the shutdown test). */
export interface DrainReport {
  /** Requests being handled when the drain began. */
  readonly inFlightAtStart: number;
  /** Connections open when the drain began. */
  readonly connectionsAtStart: number;
  /** Requests that arrived on already open connections during the drain (served, with `Connection: close`). */
  readonly servedDuringDrain: number;
  /** Connections still busy when the grace period ended, and cut. */
  readonly cutConnections: number;
  readonly durationMs: number;
}

export interface HttpDrainOptions {
  /** A connection with no request for this long during the drain is closed (default 500 ms). */
  readonly idleCloseMs?: number;
  /** How often the drain looks at its connections (default 50 ms). */
  readonly pollMs?: number;
}

interface ConnectionState {
  /** Its responses in progress. */
  readonly responses: Set<ServerResponse>;
  idleSince: number;
}

/**
 * Graceful stop of an HTTP server: stop accepting connections, let the requests
 * in flight finish, close keep-alive connections as they fall idle, and cut
 * whatever is left when the grace period ends.
 *
 * It tracks connections and requests itself, from before the server listens, so
 * it must be created before `listen`. Why not `server.close()`: since Node 19 it
 * also closes every idle keep-alive connection at once, and a client may have sent
 * its next request on such a connection a moment before (on its way, or in the
 * socket's buffer, not yet a request): that request would be cut although it was
 * sent before the signal. Here, once draining, every response carries `Connection: close`
 * (the client then opens no further request on it), and a connection is closed
 * only after it stayed idle for `idleCloseMs`.
 */
export class HttpDrain {
  private readonly connections = new Map<Socket, ConnectionState>();
  private draining = false;
  private servedDuringDrain = 0;
  private cutNow: (() => void) | null = null;

  constructor(
    private readonly server: Server,
    private readonly options: HttpDrainOptions = {},
  ) {
    server.on('connection', (socket: Socket) => this.watch(socket));
    // Prepended: runs before the application sees the request.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.track(req, res));
  }

  /** Requests being handled now. */
  get inFlight(): number {
    let count = 0;
    for (const state of this.connections.values()) count += state.responses.size;
    return count;
  }

  /** Stops accepting connections and resolves once every connection is closed, or `graceMs` has passed. */
  async drain(graceMs: number): Promise<DrainReport> {
    const started = Date.now();
    const inFlightAtStart = this.inFlight;
    const connectionsAtStart = this.connections.size;
    this.draining = true;
    for (const state of this.connections.values()) {
      for (const res of state.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    // net.Server's close: stops listening, keeps the open connections (see the class comment).
    NetServer.prototype.close.call(this.server, () => undefined);

    const idleCloseMs = this.options.idleCloseMs ?? 500;
    const pollMs = this.options.pollMs ?? 50;
    let cutConnections = 0;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearInterval(timer);
        this.cutNow = null;
        resolve();
      };
      const cutAll = () => {
        cutConnections += this.connections.size;
        for (const socket of this.connections.keys()) socket.destroy();
        this.connections.clear();
        finish();
      };
      const check = () => {
        const now = Date.now();
        for (const [socket, state] of this.connections) {
          if (state.responses.size === 0 && now - state.idleSince >= idleCloseMs) socket.destroy();
        }
        if (this.connections.size === 0) finish();
        else if (now - started >= graceMs) cutAll();
      };
      const timer = setInterval(check, pollMs);
      this.cutNow = cutAll;
      check();
    });
    return {
      inFlightAtStart,
      connectionsAtStart,
      servedDuringDrain: this.servedDuringDrain,
      cutConnections,
      durationMs: Date.now() - started,
    };
  }

  /** Ends a drain in progress at once, cutting the remaining connections (e.g. on a second signal). */
  cut(): void {
    this.cutNow?.();
  }

  private watch(socket: Socket): ConnectionState {
    const state: ConnectionState = { responses: new Set(), idleSince: Date.now() };
    this.connections.set(socket, state);
    socket.once('close', () => this.connections.delete(socket));
    return state;
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    const state = this.connections.get(req.socket) ?? this.watch(req.socket);
    state.responses.add(res);
    if (this.draining) {
      this.servedDuringDrain++;
      res.setHeader('Connection', 'close');
    }
    res.once('close', () => {
      state.responses.delete(res);
      state.idleSince = Date.now();
    });
  }
}
