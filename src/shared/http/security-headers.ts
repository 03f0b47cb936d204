import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import helmet, { type HelmetOptions } from 'helmet';

export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * helmet for the API's answers, which are JSON and never a document a browser renders:
 * the headers the OWASP REST Security Cheat Sheet asks of an API — a policy that lets
 * the body load nothing and be framed by nothing, `X-Frame-Options: DENY`, `nosniff`,
 * HSTS — with helmet's `Cross-Origin-Resource-Policy` and `Referrer-Policy` kept. The
 * rest of helmet's defaults only mean something for an HTML page (its opener, agent
 * cluster, DNS prefetching of its links, IE's download and XSS filter, Flash policy
 * files): the API documentation, an HTML page, keeps them (`documentSecurityHeaders`).
 */
export const API_HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** The security headers of every API answer (errors and unknown routes included). */
export function apiSecurityHeaders(): HeaderList {
  return helmetHeaders(helmet(API_HELMET_OPTIONS));
}

/**
 * helmet for the admin console (`/console`), a page of the service's own: its scripts,
 * styles, images and API calls come from the service's origin and nowhere else, no
 * inline script or style, no plugin, no `<base>`, framed by nothing; the rest of
 * helmet's defaults, made for HTML.
 */
export const CONSOLE_HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  xFrameOptions: { action: 'deny' },
};

/** The security headers of the admin console's page and files. */
export function consoleSecurityHeaders(): HeaderList {
  return helmetHeaders(helmet(CONSOLE_HELMET_OPTIONS));
}

/** The security headers of the API documentation's pages and files: helmet's defaults, made for HTML. */
export function documentSecurityHeaders(): HeaderList {
  return helmetHeaders(helmet());
}

/**
 * The headers a helmet middleware sets, read once at start-up by running it against
 * a recording response: they do not depend on the request, so every response gets
 * the same list without helmet's per-request chain of middlewares.
 */
export function helmetHeaders(middleware = helmet()): HeaderList {
  const headers: Array<readonly [string, string]> = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
      return recorder;
    },
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let synchronous = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(`helmet failed: ${inspect(error)}`);
    synchronous = true;
  });
  if (!synchronous) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return headers;
}
