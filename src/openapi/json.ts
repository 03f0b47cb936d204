/** A JSON object of the OpenAPI document, read and edited without the generator's types. */
export type Json = Record<string, unknown>;

export function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** HTTP methods that carry operations in a path item. */
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** Every operation of the document with its path and method. */
export function* operationsOf(paths: object): Generator<{ path: string; method: string; operation: Json }> {
  for (const [path, item] of Object.entries(paths)) {
    if (!isJson(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isJson(operation)) yield { path, method, operation };
    }
  }
}

/** Sorts object entries by key, by code point (not locale), so the output is the same on every machine. */
export const byKey = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
