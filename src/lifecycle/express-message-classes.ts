import { IncomingMessage, type ServerOptions, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { carryHeadLines } from '../shared/http/head-lines.js';

/** The `IncomingMessage`/`ServerResponse` options of `http.createServer`. */
export type MessageClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * Request and response classes for the HTTP server of an Express app, whose
 * objects have the app's `request` and `response` prototypes from birth.
 *
 * Express gives every request and response those prototypes in `app.handle`
 * (`Object.setPrototypeOf`). Done to an object Node has already built, V8 makes
 * it a map (hidden class) of its own, every time: each request then allocates a
 * map and a copy of its descriptors for the change and for every property added
 * to it afterwards, and every property read on `req`/`res` (Node, Express, Nest,
 * this service) misses its inline cache. A bare `node:http` server doing that
 * change answers a third as many requests (docs/performance.md). With these
 * classes, Express's `setPrototypeOf` finds the prototype already in place and
 * changes nothing.
 *
 * The app's `request`/`response` become the classes' prototypes: same parent
 * (Express's own), same `app` property, so `req.app`, `req.get` and every helper
 * Express and its users rely on are where they were. The responses take
 * head lines (`carryHeadLines`: the service's own header fields, rendered once).
 */
export function expressMessageClasses(app: Express): MessageClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  const target = app as unknown as { request: object; response: object };
  target.request = adopt(ExpressRequest.prototype, target.request);
  target.response = adopt(ExpressResponse.prototype, target.response);
  carryHeadLines(ExpressResponse.prototype);
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse };
}

/** `prototype` made to stand in for `replaced`: its parent and its own properties. */
function adopt(prototype: object, replaced: object): object {
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(replaced) as object | null);
  for (const key of Reflect.ownKeys(replaced)) {
    Object.defineProperty(prototype, key, Object.getOwnPropertyDescriptor(replaced, key) as PropertyDescriptor);
  }
  return prototype;
}
