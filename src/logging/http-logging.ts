import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { ByRouteMethodStatus } from '../shared/http/by-route-method-status.js';
import { assignRequestId } from '../shared/http/request-id.js';
import { routeTemplate } from '../shared/http/route-template.js';
import { looksLikeKey, redactUrl } from './redaction.js';
import { type RequestJsonParts, requestJsonParts } from './log-serializers.js';
import {
  LOG_DESTINATION,
  type RequestLineDestination,
  type RequestLineFields,
  type RequestLineWriter,
  requestInfoLineWriter,
  ROOT_LOGGER,
} from './root-logger.js';

const REQUEST_LOGGER = Symbol('requestLogger');

/** A request slower than this is logged at once, not with the next batch of lines. */
export const SLOW_REQUEST_MS = 1000;

/** Told of every response once its connection is done with it: the request's route template and duration. */
export type ResponseObserver = (req: Request, res: Response, route: string | undefined, durationMs: number) => void;

/** A line's msg by route template, method and status: the same few strings request after request. */
const summaries = new ByRouteMethodStatus<string>();

/**
 * The msg of a request's line: `GET /pets 200`. One string per route, method and
 * status, kept (routes are the app's, methods and statuses few): the line's writer
 * then quotes a string it has seen (see `requestInfoLineWriter`), where a new one
 * would be searched character by character on every request.
 */
function summary(req: Request, res: Response, route: string | undefined): string {
  const { method } = req;
  const status = res.statusCode;
  if (route === undefined) return `${method} ${redactUrl(req.path)} ${status}`;
  let msg = summaries.get(route, method, status);
  if (msg === undefined) summaries.set(route, method, status, (msg = `${method} ${route} ${status}`));
  return msg;
}

/** A key sent as `X-Request-Id` would be echoed and bound to every line: such an id is replaced, like a malformed one. */
function requestId(req: Request, res: Response): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && looksLikeKey(incoming)) delete req.headers['x-request-id'];
  return assignRequestId(req, res);
}

/**
 * The request logger, mounted first by `configureApp`. Per request it assigns the
 * request id (`X-Request-Id`: kept when valid, else generated) and writes one
 * line when the response ends (or the connection is lost first): method, route
 * template, status, duration, API key id, error code. 5xx lines (and requests
 * whose connection closed before the response ended) are at level error. No
 * credential the client sent is logged (see
 * `createRootLogger`). The same one listener tells the `ResponseObserver`s (the
 * duration metric), so that a request costs one listener and one route lookup.
 * `giveRequestLoggers` gives requests a `req.log` bound to the id (the exception
 * filter logs a 5xx detail through it).
 *
 * At debug level (or below), every line logged through Nest's `Logger` during the
 * request also carries `reqId`: the request runs in a logging context. Above it no
 * context is opened: an AsyncLocalStorage would turn on promise hooks for every
 * promise of every request, for the sake of lines that are mostly not written.
 * Lines about a failed request still carry the id (they go through `req.log`).
 */
@Injectable()
export class HttpLogging {
  readonly middleware: (req: Request, res: Response, next: NextFunction) => void;
  private readonly observers: ResponseObserver[] = [];

  private readonly writeInfoLine: RequestLineWriter;

  constructor(
    @Inject(ROOT_LOGGER) private readonly root: Logger,
    @Inject(LOG_DESTINATION) destination: RequestLineDestination,
    context: PinoLogger,
  ) {
    this.writeInfoLine = requestInfoLineWriter(root, destination);
    const bindContext = root.isLevelEnabled('debug');
    this.middleware = (req, res, next) => {
      const started = performance.now();
      const id = requestId(req, res);
      req.id = id;
      // `on`, not `once`: a response closes once, and `once` wraps every listener in a closure of its own.
      res.on('close', () => this.closed(req, res, performance.now() - started));
      if (bindContext) context.runInContext(next, { bindings: { reqId: id } });
      else next();
    };
  }

  /** Adds `observer` to what every response's end tells. */
  observe(observer: ResponseObserver): void {
    this.observers.push(observer);
  }

  /**
   * Gives the requests of an Express app (its `request` prototype) their `req.log`: the
   * root's child bound to the request id (so the root's serializers redact it), made
   * on first use (a 5xx detail) and then kept. A getter on the prototype, not on each
   * request: a getter of its own (a closure per request) turns every request object
   * into a dictionary, every property read on it a hash lookup.
   */
  giveRequestLoggers(requestPrototype: object): void {
    const root = this.root;
    Object.defineProperty(requestPrototype, 'log', {
      configurable: true,
      get(this: Request & { [REQUEST_LOGGER]?: Logger }): Logger {
        if (this[REQUEST_LOGGER]) return this[REQUEST_LOGGER];
        if (typeof this.id !== 'string') return root; // not through the middleware: no id to bind
        this[REQUEST_LOGGER] = root.child({ reqId: this.id });
        return this[REQUEST_LOGGER];
      },
    });
  }

  private closed(req: Request, res: Response, durationMs: number): void {
    const route = routeTemplate(req);
    for (const observer of this.observers) observer(req, res, route, durationMs);
    this.write(req, res, route, Math.round(durationMs));
  }

  /**
   * With the id as a field: no child per request. A routine line is built at once
   * (`requestInfoLineWriter`: the same line as the root logger's, `req` serialized
   * as its serializer does); errors and slow requests go through the root logger,
   * and are written out at once instead of with the next batch of lines.
   */
  private write(req: Request, res: Response, route: string | undefined, durationMs: number): void {
    const failed = res.statusCode >= 500 || !res.writableFinished;
    const routine = !failed && durationMs < SLOW_REQUEST_MS;
    const errorCode: unknown = res.locals.errorCode;
    // Optional fields left undefined are not written, by pino nor by the routine line's writer.
    // One object per line: `req` as JSON text here for the routine writer, by pino's serializer otherwise.
    const line: RequestLineFields<Request | RequestJsonParts> = {
      reqId: req.id as string,
      method: req.method,
      route: route ?? null,
      status: res.statusCode,
      durationMs,
      apiKeyId: (req as AuthenticatedRequest).apiKey?.id,
      code: typeof errorCode === 'string' ? errorCode : undefined,
      req: routine ? requestJsonParts(req) : req,
    };
    const msg = summary(req, res, route);
    if (routine) this.writeInfoLine(line as RequestLineFields<RequestJsonParts>, msg);
    else if (failed) this.root.error(line, msg);
    else {
      this.root.info(line, msg);
      this.root.flush();
    }
  }
}
