import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { declaresBody } from '../shared/http/declares-body.js';
import { removeUnordered } from '../shared/remove-unordered.js';

/**
 * What each connection has been answered, so that a refusal written straight to
 * the socket (`ParserRefusals`) never follows or interleaves with a response, and
 * the connection behind an early answer is closed.
 *
 * A response counts from its request until it has finished *and* its request has
 * fully arrived: a response sent before the body was in (a 413, 415 or 429) still
 * answers that request, and a timeout of its body must not be answered again.
 *
 * Such an early answer also says `Connection: close`: Node would otherwise read
 * (and wait for) the rest of a body nobody wants, up to the request timeout, to
 * keep the connection alive.
 *
 * A connection's responses are an array (`removeUnordered`), not a Set: see there why.
 */
export class ConnectionResponses {
  private readonly open = new WeakMap<Socket, ServerResponse[]>();

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
    if (!responses) this.open.set(socket, (responses = []));
    responses.push(res);
    // A request without a body is whole once its head is in: nothing to wait for nor to close on.
    const bodyless = !declaresBody(req);
    if (!bodyless) closeIfAnsweredEarly(req, res);
    const settle = () => {
      if (bodyless || req.complete) removeUnordered(responses, res);
      else req.once('end', () => removeUnordered(responses, res));
    };
    // `on`, not `once`: a response finishes once, and `once` wraps the listener in a closure and removes it after.
    res.on('finish', settle);
  }
}

/** Adds `Connection: close` to a response whose head leaves before its request has fully arrived. */
function closeIfAnsweredEarly(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}
