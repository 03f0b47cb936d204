import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DiscoveryService } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { ApiError, RouteCatalog } from '@petstore/errors';
import { RateLimiter, RateLimitMiddleware } from '@petstore/rate-limit';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from './config/app.config.js';
import { CONSOLE_PATH } from './console/console-files.js';
import { ConnectionResponses } from './lifecycle/connection-responses.js';
import { ParserRefusals } from './lifecycle/parser-refusals.js';
import { addressRateLimitHeaders } from './lifecycle/refusal-rate-limit.js';
import { ServerOptionsExpressAdapter } from './lifecycle/server-timeouts.js';
import { compileTrustProxy, type TrustProxy } from './lifecycle/trust-proxy.js';
import { HttpLogging } from './logging/http-logging.js';
import { RootLogger } from './logging/root-logger.js';
import { AppMetrics } from './metrics/app-metrics.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { exposedHeadersOf } from './shared/http/expose-headers.decorator.js';
import { jsonBody } from './shared/http/json-body.middleware.js';
import { responseDefaults } from './shared/http/private-cache.middleware.js';
import { parseQuery } from './shared/http/query-parser.js';
import { useRouteCatalog } from './shared/http/route-template.js';
import { validateNoCacheRequests } from './shared/http/validating-freshness.js';
import { traceRequests } from './tracing/request-tracing.js';
import { tracingRequested } from './tracing/tracing-switch.js';

/** Served by Swagger (below) to anyone: the only answers a shared cache may keep. */
const PUBLIC_DOCUMENTS = ['/docs', '/openapi.json', '/openapi.yaml'];

/** The service's own response headers that browsers may read under CORS; modules add theirs with `@ExposeHeaders`. */
const EXPOSED_HEADERS = [
  'Link',
  'Location',
  'X-Request-Id',
  'traceresponse',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

/**
 * Everything about the HTTP edge that is not a module: shared by `main.ts`, the
 * e2e tests and the OpenAPI export, so they all exercise the same app.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): INestApplication {
  app.disable('x-powered-by');
  app.set('query parser', parseQuery);
  const trustProxy = compileTrustProxy(config.trustProxy);
  if (config.trustProxy !== undefined) app.set('trust proxy', trustProxy);
  answerRefusalsBeforeRouting(app, config, trustProxy);
  const routes = app.get(RouteCatalog);
  routes.add(...PUBLIC_DOCUMENTS.map((path) => ({ method: 'GET', path })));
  // The admin console's page and files (ConsoleModule: @nestjs/serve-static registers them on Express at start-up,
  // its deep links under the template named here, which the metrics and logs of its files share).
  routes.add({ method: 'GET', path: CONSOLE_PATH }, { method: 'GET', path: `${CONSOLE_PATH}/{*any}` });
  useRouteCatalog(app.getHttpAdapter().getInstance(), routes);
  // With tracing on (the entry started the SDK), the request's span comes first: all that follows runs in it.
  if (tracingRequested(process.env)) app.use(traceRequests());
  // Then the request id, the request log line and the duration metric (one listener for both),
  // so that every request is logged and timed, whichever middleware answers it.
  const logging = app.get(HttpLogging);
  logging.observe(app.get(AppMetrics).recordRequest);
  logging.giveRequestLoggers(app.getHttpAdapter().getInstance().request);
  app.use(logging.middleware);
  app.use(validateNoCacheRequests);
  // Before anything can answer, so that refusals are private and carry the security headers too.
  app.use(responseDefaults(PUBLIC_DOCUMENTS));
  // Before CORS and the body parser: every response, errors included, is counted and carries the headers.
  if (config.rateLimit.enabled) app.use(app.get(RateLimitMiddleware).handle);
  app.use(requireHost);
  // With METRICS_PORT set, /metrics is served there only.
  if (config.metricsPort !== undefined) {
    app.use('/metrics', (req: Request, _res: Response, next: NextFunction) =>
      next(new ApiError(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.originalUrl.split('?')[0]}`)),
    );
  }
  if (config.corsOrigins.length > 0) {
    const declared = exposedHeadersOf(app.get(DiscoveryService));
    const own = new Set(EXPOSED_HEADERS.map((name) => name.toLowerCase()));
    app.enableCors({
      origin: [...config.corsOrigins],
      exposedHeaders: [...EXPOSED_HEADERS, ...declared.filter((name) => !own.has(name.toLowerCase()))],
    });
  }
  app.use(jsonBody);
  // Built on the first request for it (then kept): not part of the start-up.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Petstore API',
    // x-stability and x-sunset are part of what a reader must see.
    swaggerOptions: { showExtensions: true },
  });
  return app;
}

/**
 * The server's own refusals (oversized or malformed requests, slow clients, see
 * `ParserRefusals`) in the Error shape. The server must come from
 * `ServerOptionsExpressAdapter`, which gives it its timeouts.
 */
function answerRefusalsBeforeRouting(app: NestExpressApplication, config: AppConfig, trustProxy: TrustProxy): void {
  if (!(app.getHttpAdapter() instanceof ServerOptionsExpressAdapter)) {
    throw new Error('configureApp needs an application created with a ServerOptionsExpressAdapter (server timeouts)');
  }
  const server = app.getHttpServer();
  const log = app.get(RootLogger).logger;
  const isTrustedProxy = (address: string): boolean => trustProxy(address, 0);
  new ParserRefusals(server, new ConnectionResponses(server), {
    rateLimitHeaders: config.rateLimit.enabled
      ? addressRateLimitHeaders(app.get(RateLimiter), isTrustedProxy)
      : () => Promise.resolve(null),
    record: ({ reqId, status, code, reason, remoteAddress }) =>
      log.info({ reqId, status, code, reason, remoteAddress }, `Refused before routing: ${status} ${code}`),
  });
}

/** HTTP/1.1 requires `Host` (RFC 9112 3.2); Node's own check would answer outside the Error shape. */
function requireHost(req: Request, res: Response, next: NextFunction): void {
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return next();
  res.setHeader('Connection', 'close'); // as Node would: such a client may not be speaking HTTP at all
  next(new ApiError(400, 'VALIDATION_FAILED', 'Invalid request: an HTTP/1.1 request must carry a Host header'));
}
