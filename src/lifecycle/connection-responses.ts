import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { declaresBody } from '@petstore/errors';

/**
 * What each connection has been answered, so that a refusal written straight to
 * the socket (`ParserRefusals`) never follows or interleaves with a response.
 *
 * A response counts from its request until it has finished *and* its request has
 * fully arrived: a response sent before the body was in (a 413, 415 or 429) still
 * answers that request, and a timeout of its body must not be answered again.
 * (Such an early answer closes the connection once the rest of the body is read
 * and discarded, for a bounded time: see the exception filter's lingering close.)
 */
export class ConnectionResponses {
  private readonly open = new WeakMap<Socket, Set<ServerResponse>>();

  constructor(server: Server) {
    // Prepended: runs before the application sees the request.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.track(req, res));
  }

  /** True when a response on this connection has begun and still answers a request in progress. */
  hasAnswered(socket: Socket): boolean {
    for (const res of this.open.get(socket) ?? []) if (res.headersSent) return true;
    return false;
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let responses = this.open.get(socket);
    if (!responses) this.open.set(socket, (responses = new Set()));
    responses.add(res);
    // A request without a body is whole once its head is in: nothing to wait for.
    const bodyless = !declaresBody(req);
    res.once('finish', () => {
      if (bodyless || req.complete) responses.delete(res);
      else req.once('end', () => responses.delete(res));
    });
  }
}
