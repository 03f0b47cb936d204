import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ballast, oldGenerationGrowth } from '../../test/support/old-generation.js';
import { ConnectionResponses } from './connection-responses.js';

/** A bodyless request on `socket`, and its response (what the tracker reads of them). */
function exchange(socket: EventEmitter, headersSent: boolean) {
  const req = Object.assign(new EventEmitter(), { socket, headers: {}, complete: true });
  const res = Object.assign(new EventEmitter(), ballast(8 * 1024), { headersSent });
  return { req, res };
}

describe('ConnectionResponses', () => {
  it('says whether a response has begun on the connection, until it has finished', () => {
    const server = new EventEmitter();
    const responses = new ConnectionResponses(server as unknown as Server);
    const socket = new EventEmitter();
    const other = new EventEmitter();
    const { req, res } = exchange(socket, false);
    server.emit('request', req, res);
    expect(responses.hasAnswered(socket as Socket)).toBe(false);
    res.headersSent = true;
    expect(responses.hasAnswered(socket as Socket)).toBe(true);
    expect(responses.hasAnswered(other as Socket)).toBe(false);
    res.emit('finish');
    expect(responses.hasAnswered(socket as Socket)).toBe(false);
  });

  it('keeps nothing of a finished response for the old generation', () => {
    const server = new EventEmitter();
    const responses = new ConnectionResponses(server as unknown as Server);
    const socket = new EventEmitter();
    const count = 2_000;
    // The connection's first exchange, before: what the tracker keeps per connection is then old, as a server's is.
    const first = exchange(socket, true);
    server.emit('request', first.req, first.res);
    first.res.emit('finish');
    const growth = oldGenerationGrowth(() => {
      const inFlight: EventEmitter[] = [];
      for (let i = 0; i < count; i += 1) {
        const { req, res } = exchange(socket, true);
        server.emit('request', req, res);
        inFlight.push(res);
        if (inFlight.length > 5) inFlight.shift()?.emit('finish');
      }
      for (const res of inFlight.splice(0)) res.emit('finish');
    });
    expect(responses.hasAnswered(socket as Socket)).toBe(false);
    expect(growth).toBeLessThan((count * 8 * 1024) / 20);
  });
});
