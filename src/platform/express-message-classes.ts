import { IncomingMessage, type ServerOptions, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** The `IncomingMessage`/`ServerResponse` options of `http.createServer`. */
export type MessageClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * Request and response classes for an Express app's HTTP server whose objects are
 * born with the app's `request` and `response` prototypes.
 *
 * Express gives every request and response those prototypes as it starts handling
 * them (`Object.setPrototypeOf` in `app.handle`). Done to an object Node has
 * already built, V8 gives the object a hidden class of its own, every time, and
 * every property read on `req`/`res` afterwards (in Node, Express, Nest and the
 * service) misses its inline cache. Born with the prototype, the objects share one
 * hidden class and Express's `setPrototypeOf` changes nothing.
 *
 * The classes' prototypes take the place of the app's `request` and `response`
 * (same parent, Express's own; same own properties, `app`): `req.app`, `req.get`
 * and every helper Express and its users rely on are where they were, and a
 * property a module adds to `app.request` later lands on the class's prototype.
 */
export function expressMessageClasses(app: Express): MessageClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  const target = app as unknown as { request: object; response: object };
  target.request = adopt(ExpressRequest.prototype, target.request);
  target.response = adopt(ExpressResponse.prototype, target.response);
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
