import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * The headers helmet sets with its defaults, read once at start-up by running it
 * against a recording response: they do not depend on the request, so every
 * response gets the same list without helmet's per-request chain of middlewares.
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
    if (error) throw error instanceof Error ? error : new Error(String(error));
    synchronous = true;
  });
  if (!synchronous) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return headers;
}
