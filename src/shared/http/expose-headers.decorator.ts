import { SetMetadata } from '@nestjs/common';
import { type DiscoveryService, MetadataScanner } from '@nestjs/core';

const EXPOSE_HEADERS = 'http:exposeHeaders';

/**
 * Response headers of a controller or handler that browsers may read under CORS
 * (`Access-Control-Expose-Headers`), e.g. `@ExposeHeaders('X-Total-Count')`.
 * Collected at start-up (`exposedHeadersOf`) into the application's CORS setup,
 * beside the service's own list: no edit of `app.setup.ts` needed.
 */
export const ExposeHeaders = (...names: string[]): ClassDecorator & MethodDecorator =>
  SetMetadata(EXPOSE_HEADERS, names);

/** Every header name `@ExposeHeaders` declares on the application's controllers and their handlers, once each. */
export function exposedHeadersOf(discovery: DiscoveryService): string[] {
  const scanner = new MetadataScanner();
  const names = new Map<string, string>();
  const take = (target: object) => {
    const declared: unknown = Reflect.getMetadata(EXPOSE_HEADERS, target);
    if (!Array.isArray(declared)) return;
    for (const name of declared) {
      if (typeof name === 'string' && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
    }
  };
  for (const { metatype } of discovery.getControllers()) {
    if (typeof metatype !== 'function') continue;
    take(metatype);
    const prototype = metatype.prototype as Record<string, unknown>;
    for (const key of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[key];
      if (typeof handler === 'function') take(handler);
    }
  }
  return [...names.values()];
}
