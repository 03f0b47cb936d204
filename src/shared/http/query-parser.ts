import { parse } from 'node:querystring';

/** Parsed query parameters, as `node:querystring` gives them: no prototype, a repeated name's values in an array. */
export type QueryParameters = Record<string, string | string[]>;

/** `name=value` pairs of unreserved characters only: nothing to decode (no `%`, no `+`), no empty pair. */
const PLAIN_PAIRS = /^[\w.~-]+=[\w.~-]*(?:&[\w.~-]+=[\w.~-]*)*$/;
/** `node:querystring` keeps the first 1,000 pairs; a plain string this short cannot hold more. */
const MAX_PLAIN_LENGTH = 2_000;

/**
 * Express's query parser ("simple": `node:querystring`'s `parse`), with a short way
 * for the queries the API's reads carry (`id=42`, `categoryId=3&cursor=djE6MTA`):
 * plain pairs with distinct names give the same object, built on a prototype-less
 * object V8 keeps in fast mode. `parse` builds its result on a dictionary-mode object,
 * whose every new key misses V8's store cache in the running service (~1 µs per
 * request, docs/performance.md). Anything else (escapes, `+`, a repeated name,
 * empty pairs, a long string) goes to `parse` itself.
 */
export function parseQuery(query: unknown): QueryParameters {
  if (typeof query !== 'string' || query.length > MAX_PLAIN_LENGTH || !PLAIN_PAIRS.test(query)) {
    return parse(query as string) as QueryParameters;
  }
  const parameters = Object.setPrototypeOf({}, null) as Record<string, string>;
  let start = 0;
  while (start < query.length) {
    const equals = query.indexOf('=', start);
    let end = query.indexOf('&', equals);
    if (end < 0) end = query.length;
    const name = query.slice(start, equals);
    if (name in parameters) return parse(query) as QueryParameters; // repeated: an array, as `parse` makes it
    parameters[name] = query.slice(equals + 1, end);
    start = end + 1;
  }
  return parameters;
}
