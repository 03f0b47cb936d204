import { Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { routeTemplate } from '../shared/http/route-template.js';
import { requestSpanContext } from '../tracing/request-tracing.js';
import { requestJson } from './log-serializers.js';
import { redactUrl } from './redaction.js';
import { requestId } from './request-id.js';
import {
  LogDestination,
  type RequestLineFields,
  type RequestLineWriter,
  requestInfoLineWriter,
  RootLogger,
} from './root-logger.js';

const REQUEST_LOGGER = Symbol('requestLogger');

/** Told of every response once its connection is done with it: the request's route template and duration. */
export type ResponseObserver = (req: Request, res: Response, route: string | undefined, durationMs: number) => void;

/** The msg of a request's line: `GET /pets/:petId 200`, or the (redacted) path when no route serves it. */
function summary(req: Request, res: Response, route: string | undefined): string {
  return `${req.method} ${route ?? redactUrl(req.path)} ${res.statusCode}`;
}

/**
 * The request logger, mounted first by `configureApp`. Per request it assigns the
 * request id (`X-Request-Id`: kept when valid, else generated, and sent back with
 * `res.setHeader`) and writes one line when the response ends (or the connection
 * is lost first): method, route template, status, duration, API key id, error code,
 * the request, and with tracing on the trace and span ids (the same the response's
 * `traceresponse` header carries). 5xx lines (and requests whose connection closed
 * before the response ended) are at level error. No credential the client sent is logged (see
 * `createRootLogger`). The same one listener tells the `ResponseObserver`s (the
 * duration metric). `giveRequestLoggers` gives requests a `req.log` bound to the id
 * (the exception filter logs a 5xx detail through it).
 *
 * Not pino-http: it binds two child loggers per request (its `req.log` and the
 * `req` of its line), and with pino's general path for the line cost ~20 µs of CPU
 * per request against ~3 µs here, 25-30% of a read's CPU (docs/operations.md).
 *
 * At debug level (or below), every line logged through Nest's `Logger` during the
 * request also carries `reqId`: the request runs in nestjs-pino's logging context.
 * Above it no context is opened: an AsyncLocalStorage would turn on promise hooks
 * for every promise of every request, for the sake of lines that are mostly not
 * written. Lines about a failed request still carry the id (they go through `req.log`).
 */
@Injectable()
export class HttpLogging {
  readonly middleware: (req: Request, res: Response, next: NextFunction) => void;
  private readonly observers: ResponseObserver[] = [];
  private readonly writeInfoLine: RequestLineWriter;
  private readonly root: Logger;

  constructor({ logger: root }: RootLogger, destination: LogDestination, context: PinoLogger) {
    this.root = root;
    this.writeInfoLine = requestInfoLineWriter(root, destination);
    const bindContext = root.isLevelEnabled('debug');
    this.middleware = (req, res, next) => {
      const started = performance.now();
      const id = requestId(req, res);
      req.id = id;
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
   * Gives the requests of an Express app (`app.request`, the prototype Express
   * documents for extending requests) their `req.log`: the root's child bound to the
   * request id, made on first use (a 5xx detail) and then kept.
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
    // The request's span, opened by `traceRequests` before this middleware (none with tracing off).
    const span = requestSpanContext(req);
    const route = routeTemplate(req);
    for (const observer of this.observers) observer(req, res, route, durationMs);
    const failed = res.statusCode >= 500 || !res.writableFinished;
    const errorCode: unknown = res.locals.errorCode;
    // Optional fields left undefined are not written, by pino nor by the routine line's writer.
    const fields: Omit<RequestLineFields, 'req'> = {
      reqId: req.id as string,
      method: req.method,
      route: route ?? null,
      status: res.statusCode,
      durationMs: Math.round(durationMs),
      apiKeyId: (req as AuthenticatedRequest).apiKey?.id,
      code: typeof errorCode === 'string' ? errorCode : undefined,
      traceId: span?.traceId,
      spanId: span?.spanId,
    };
    const msg = summary(req, res, route);
    if (failed) this.root.error({ ...fields, req }, msg);
    else this.writeInfoLine({ ...fields, req: requestJson(req) }, msg);
  }
}
