// The floor reference of `npm run bench`: the cheapest correct NestJS 12 app on
// @nestjs/platform-express doing the service's work for the measured requests (see
// work.mjs): one module, one controller, auth and the rate limit in a global guard,
// parameters parsed by hand, pg directly, no logger, no ETag, no X-Powered-By, and
// its HTTP server built with request/response classes that carry the app's
// prototypes (Express otherwise changes each request's prototype, which costs V8
// a hidden class per request: without this the floor spends 2.4x the CPU per
// request, see docs/performance.md). Plain JavaScript with Nest's decorators
// applied as functions, so it needs no build.
import 'reflect-metadata';
import { Controller, Get, HttpException, Inject, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { BODY_LIMIT_BYTES, ReferenceWork, Refusal } from './work.mjs';

const WORK = Symbol('ReferenceWork');

/** A Refusal as Nest answers it: the Error body as the response, its headers set first. */
function toHttpException(error, res) {
  if (!(error instanceof Refusal)) return error;
  if (error.headers) for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  return new HttpException(error.body, error.status);
}

async function refusing(res, work) {
  try {
    return await work();
  } catch (error) {
    throw toHttpException(error, res);
  }
}

/** Authentication, rate limit and scope for every route but the readiness probe. */
class AuthAndLimitGuard {
  constructor(work) {
    this.work = work;
  }

  async canActivate(context) {
    const http = context.switchToHttp();
    const req = http.getRequest();
    if (req.url === '/health/ready') return true;
    const res = http.getResponse();
    const scope = req.method === 'GET' ? 'read' : 'write';
    req.apiKey = await refusing(res, () =>
      this.work.admit(req.headers['x-api-key'], req.socket.remoteAddress, scope, res),
    );
    return true;
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

class FloorController {
  constructor(work) {
    this.work = work;
  }

  listPets(req, res) {
    const mark = req.url.indexOf('?');
    return refusing(res, () => this.work.listPets(req.url, mark < 0 ? '' : req.url.slice(mark + 1), res));
  }

  getPet(req, res) {
    return refusing(res, () => this.work.getPet(req.params.petId, res));
  }

  placeOrder(req, res) {
    return refusing(res, () => {
      if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) {
        throw new Refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json');
      }
      return this.work.placeOrder(req.apiKey, req.body, res);
    });
  }

  async ready() {
    await this.work.pool.query('SELECT 1');
    return { status: 'ok' };
  }
}

Controller()(FloorController);
Inject(WORK)(FloorController, undefined, 0);
const routes = { listPets: Get('pets'), getPet: Get('pets/:petId'), placeOrder: Post('store/orders') };
for (const [method, route] of Object.entries(routes)) {
  const descriptor = Object.getOwnPropertyDescriptor(FloorController.prototype, method);
  Reflect.decorate([route], FloorController.prototype, method, descriptor);
  Req()(FloorController.prototype, method, 0);
  Res({ passthrough: true })(FloorController.prototype, method, 1);
}
Reflect.decorate(
  [Get('health/ready')],
  FloorController.prototype,
  'ready',
  Object.getOwnPropertyDescriptor(FloorController.prototype, 'ready'),
);

/** The app's `request`/`response` as the prototypes of the classes the server builds its objects with. */
class FloorAdapter extends ExpressAdapter {
  initHttpServer() {
    const app = this.getInstance();
    class FloorRequest extends IncomingMessage {}
    class FloorResponse extends ServerResponse {}
    const adopt = (prototype, replaced) => {
      Object.setPrototypeOf(prototype, Object.getPrototypeOf(replaced));
      for (const key of Reflect.ownKeys(replaced)) {
        Object.defineProperty(prototype, key, Object.getOwnPropertyDescriptor(replaced, key));
      }
      return prototype;
    };
    app.request = adopt(FloorRequest.prototype, app.request);
    app.response = adopt(FloorResponse.prototype, app.response);
    this.setHttpServer(createServer({ IncomingMessage: FloorRequest, ServerResponse: FloorResponse }, app));
  }
}

class FloorModule {}
const work = new ReferenceWork();
Module({ controllers: [FloorController], providers: [{ provide: WORK, useValue: work }] })(FloorModule);

const app = await NestFactory.create(FloorModule, new FloorAdapter(), { logger: false, bodyParser: false });
app.disable('x-powered-by');
app.set('etag', false);
app.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
app.useGlobalGuards(new AuthAndLimitGuard(work));
app.enableShutdownHooks();
const server = await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.on('beforeExit', () => work.close());
