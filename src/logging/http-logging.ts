import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { routeTemplate } from '../shared/http/route-template.js';
import { redactUrl } from './redaction.js';
import { requestId } from './request-id.js';
import { ROOT_LOGGER } from './root-logger.js';

/** Told of every response once its connection is done with it: the request's route template and duration. */
export type ResponseObserver = (req: Request, res: Response, route: string | undefined, durationMs: number) => void;

/** What the line of a request says about it, besides `reqId` and `req` (bound by pino-http), level, time and msg. */
interface RequestLineFields {
  readonly method: string;
  /** The route template (`/pets/:petId`), or null for a path no route serves. */
  readonly route: string | null;
  readonly status: number;
  readonly durationMs: number;
  /** The id of the API key that sent the request, when it sent a valid one; never the key. */
  readonly apiKeyId?: number;
  /** The Error code of a failure (`RATE_LIMIT_EXCEEDED`, …), as recorded by the exception filter. */
  readonly code?: string;
}

function lineFields(req: Request, res: Response, durationMs: number): RequestLineFields {
  const errorCode: unknown = res.locals.errorCode;
  // Fields left undefined are not written.
  return {
    method: req.method,
    route: routeTemplate(req) ?? null,
    status: res.statusCode,
    durationMs,
    apiKeyId: (req as AuthenticatedRequest).apiKey?.id,
    code: typeof errorCode === 'string' ? errorCode : undefined,
  };
}

/** The msg of a request's line: `GET /pets/:petId 200`, or the (redacted) path when no route serves it. */
function summary(req: Request, res: Response): string {
  return `${req.method} ${routeTemplate(req) ?? redactUrl(req.path)} ${res.statusCode}`;
}

/**
 * The request logger, pino-http on the root logger, mounted first by
 * `configureApp`. Per request it assigns the request id (`genReqId`: `X-Request-Id`
 * kept when valid, else generated, and sent back) and writes one line when the
 * response ends (or the connection is lost first): method, route template, status,
 * duration, API key id, error code, and the request (`req`, redacted by the root
 * logger's serializer and `redact`). 5xx lines (and requests whose connection closed
 * before the response ended) are at level error. `req.log` is bound to the request
 * id alone (`quietReqLogger`): the exception filter logs a 5xx detail through it.
 * The `ResponseObserver`s (the duration metric) are told of every response with
 * its duration measured to the fraction of a millisecond.
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

  constructor(@Inject(ROOT_LOGGER) root: Logger, context: PinoLogger) {
    const logRequest = pinoHttp<Request, Response>({
      logger: root,
      // The root logger's own serializers, given the raw request and error.
      wrapSerializers: false,
      quietReqLogger: true,
      genReqId: requestId,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 || !res.writableFinished ? 'error' : 'info'),
      customSuccessMessage: summary,
      customErrorMessage: summary,
      customSuccessObject: (req, res, { responseTime }: { responseTime: number }) => lineFields(req, res, responseTime),
      customErrorObject: (req, res, _err, { responseTime }: { responseTime: number }) =>
        lineFields(req, res, responseTime),
    });
    const bindContext = root.isLevelEnabled('debug');
    this.middleware = (req, res, next) => {
      const started = performance.now();
      res.on('close', () => this.closed(req, res, performance.now() - started));
      if (bindContext) logRequest(req, res, () => context.runInContext(next, { bindings: { reqId: req.id } }));
      else logRequest(req, res, next);
    };
  }

  /** Adds `observer` to what every response's end tells. */
  observe(observer: ResponseObserver): void {
    this.observers.push(observer);
  }

  private closed(req: Request, res: Response, durationMs: number): void {
    if (this.observers.length === 0) return;
    const route = routeTemplate(req);
    for (const observer of this.observers) observer(req, res, route, durationMs);
  }
}
