import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { type DiscoveryService, MetadataScanner } from '@nestjs/core';
import { LRUCache } from 'lru-cache';
import { pathToRegexp } from 'path-to-regexp';

/** A route of the application: its method (upper case, `ALL` for any) and path template, as Express is given them. */
export interface AppRoute {
  readonly method: string;
  readonly path: string;
  /** The controller method that serves it (for reading its decorators' metadata), when it is one. */
  readonly handler?: object;
}

/** Paths remembered: refused requests (a client over its quota, a wrong method) repeat a few. */
const MAX_REMEMBERED = 1_000;
/** Longer paths are matched every time: they would make the cache's memory the client's to choose. */
const MAX_REMEMBERED_PATH = 256;

/**
 * A path template matched as Express's router matches it: path-to-regexp (the
 * library the router itself uses) with the router's options, case-insensitive, the
 * whole path, an optional trailing slash (the router drops the template's own).
 */
export function templatePattern(template: string): RegExp {
  const loose = template === '/' ? template : template.replace(/\/+$/, '');
  return pathToRegexp(loose, { sensitive: false, end: true, trailing: true }).regexp;
}

/**
 * The application's routes (method and path template), collected once at start-up
 * (`discoverRoutes`, plus any route registered on Express directly), and matched
 * against a request's path: to tell a wrong method (405, with `Allow`) from an
 * unknown path (404), and to name the route template of a request refused before
 * routing (logs, metrics, rate-limit exemptions). What Express matched itself is
 * `req.route.path`; this is for the requests it never routed.
 */
export class RouteCatalog {
  private readonly compiled: Array<{ readonly route: AppRoute; readonly pattern: RegExp }> = [];
  private readonly remembered = new LRUCache<string, readonly AppRoute[]>({ max: MAX_REMEMBERED });

  constructor(routes: readonly AppRoute[] = []) {
    this.add(...routes);
  }

  /** Adds routes after those known (e.g. the documentation's, which Swagger registers on Express). */
  add(...routes: readonly AppRoute[]): void {
    for (const route of routes) {
      this.compiled.push({
        route: { ...route, method: route.method.toUpperCase() },
        pattern: templatePattern(route.path),
      });
    }
    this.remembered.clear();
  }

  get routes(): readonly AppRoute[] {
    return this.compiled.map(({ route }) => route);
  }

  /** The routes whose template matches `path` (a request's `req.path`), whatever their methods, in order. */
  matching(path: string): readonly AppRoute[] {
    if (path.length > MAX_REMEMBERED_PATH) return this.walk(path);
    let routes = this.remembered.get(path);
    if (routes === undefined) this.remembered.set(path, (routes = this.walk(path)));
    return routes;
  }

  /** The first route that serves `method` on `path`, as Express would pick it (HEAD is served by GET). */
  serving(method: string, path: string): AppRoute | undefined {
    const wanted = method.toUpperCase();
    return this.matching(path).find(
      ({ method: served }) => served === wanted || served === 'ALL' || (wanted === 'HEAD' && served === 'GET'),
    );
  }

  /** The methods served on `path`, sorted (HEAD wherever GET is); empty when no route matches it. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const { method } of this.matching(path)) if (method !== 'ALL') methods.add(method);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  private walk(path: string): readonly AppRoute[] {
    return Object.freeze(this.compiled.filter(({ pattern }) => pattern.test(path)).map(({ route }) => route));
  }
}

const joinPaths = (...parts: readonly string[]): string =>
  `/${parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part.length > 0)
    .join('/')}`;

/** A path of Nest's metadata (a string, or a list of them) as a list; none is the root. */
const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [''];

/**
 * The routes of every controller Nest knows, read from their decorators' metadata
 * (`@Controller(path)`, `@Get(path)`…), in the order Nest registers them. A global
 * prefix, if the application sets one, is given as `prefix`.
 */
export function discoverRoutes(discovery: DiscoveryService, prefix = ''): AppRoute[] {
  const scanner = new MetadataScanner();
  const routes: AppRoute[] = [];
  for (const { metatype } of discovery.getControllers()) {
    if (typeof metatype !== 'function') continue;
    const controllerPaths = asList(Reflect.getMetadata(PATH_METADATA, metatype));
    const prototype = metatype.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      if (typeof handler !== 'function') continue;
      const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, handler);
      if (methodPath === undefined) continue; // not a route handler
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'GET';
      for (const controllerPath of controllerPaths) {
        for (const path of asList(methodPath)) {
          routes.push({ method: method.toUpperCase(), path: joinPaths(prefix, controllerPath, path), handler });
        }
      }
    }
  }
  return routes;
}
