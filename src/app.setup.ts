import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { RateLimitMiddleware } from '@petstore/rate-limit';
import helmet from 'helmet';
import type { AppConfig } from './config/app.config.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { jsonBody } from './shared/http/json-body.middleware.js';
import { requestId } from './shared/http/request-id.middleware.js';

/**
 * Everything about the HTTP edge that is not a module: shared by `main.ts`, the
 * e2e tests and the OpenAPI export, so they all exercise the same app.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): INestApplication {
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', parseTrustProxy(config.trustProxy));
  app.use(requestId);
  app.use(helmet());
  // Before CORS and the body parser: every response, errors included, is counted and carries the headers.
  if (config.rateLimit.enabled) app.use(app.get(RateLimitMiddleware).handle);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: [...config.corsOrigins],
      exposedHeaders: [
        'Link',
        'Location',
        'X-Request-Id',
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
      ],
    });
  }
  app.use(jsonBody);
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Petstore API',
  });
  return app;
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
