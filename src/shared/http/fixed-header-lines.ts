import { ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import type { HeaderList } from './security-headers.js';

/** Where a response keeps the lines it is to write after its status line (on its prototype: none). */
const FIXED_LINES = Symbol('fixedHeaderLines');

/** Node's `ServerResponse` method that renders the head: the status line, then each header set. */
type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;
const storeHeader = (ServerResponse.prototype as unknown as { _storeHeader?: StoreHeader })._storeHeader;

type LinesResponse = ServerResponse & { [FIXED_LINES]: string };

/**
 * Headers that are the same on every response they go on (the security headers),
 * validated as `setHeader` would and rendered once as head lines (`Name: value\r\n`).
 */
export class FixedHeaderLines {
  readonly text: string;

  constructor(readonly headers: HeaderList) {
    for (const [name, value] of headers) {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    }
    this.text = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  }
}

/**
 * Lets the responses of a `ServerResponse` prototype carry `FixedHeaderLines`,
 * written right after the status line whatever else the response sets. Set one by
 * one, six security headers cost every response six `setHeader` calls (each
 * validates the name and value, lower-cases the name and stores a pair) and six
 * more steps when the head is rendered; as lines, one string concatenation. Such
 * headers are not among `getHeaders()`: nothing on the API's paths reads or
 * replaces them. False (nothing done) when this Node renders heads otherwise.
 */
export function carryFixedHeaderLines(prototype: ServerResponse): boolean {
  if (typeof storeHeader !== 'function') return false;
  Object.defineProperties(prototype, {
    [FIXED_LINES]: { value: '', writable: true, configurable: true },
    // Node renders a response's head once, in `_storeHeader(statusLine, headers)` (from `writeHead`).
    _storeHeader: {
      value: function (this: LinesResponse, firstLine: string, headers: unknown): void {
        storeHeader.call(this, firstLine + this[FIXED_LINES], headers);
      },
      writable: true,
      configurable: true,
    },
  });
  return true;
}

/** Whether `res` can carry fixed lines (`carryFixedHeaderLines`). */
export function carriesFixedHeaderLines(res: ServerResponse): res is LinesResponse {
  return FIXED_LINES in res;
}

/**
 * Gives `res` the `lines`: as fixed head lines when it can carry them
 * (`carryFixedHeaderLines`), else with `setHeader`, one by one. A response takes
 * one set of fixed lines: a second call replaces the first.
 */
export function setFixedHeaders(res: ServerResponse, lines: FixedHeaderLines): void {
  if (carriesFixedHeaderLines(res)) res[FIXED_LINES] = lines.text;
  else for (const [name, value] of lines.headers) res.setHeader(name, value);
}
