import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionResponses } from './connection-responses.js';

/** A bodyless request on `socket`, and its response (what the tracker reads of them). */
function exchange(socket: EventEmitter, headersSent: boolean) {
  const req = Object.assign(new EventEmitter(), { socket, headers: {}, complete: true });
  const res = Object.assign(new EventEmitter(), { headersSent });
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
});
