import { ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import type { HeaderList } from './security-headers.js';

/**
 * A response that takes header fields as lines its caller renders
 * (`Name: value\r\n` each), kept under a slot: a later call for the same slot
 * replaces the lines, as `setHeader` replaces a value. The caller vouches for the
 * lines (no CR or LF but their ends, valid names): nothing checks them again.
 * With `unlessSet` (a lower-case field name) they are a default: left out when the
 * response's own headers name that field by the time the head is written.
 */
export interface HeadLinesTarget {
  setHeadLines(slot: string, lines: string, unlessSet?: string): void;
}

/** Node's `ServerResponse` method that renders the head: the status line, then each header set. */
type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;
const storeHeader = (ServerResponse.prototype as unknown as { _storeHeader?: StoreHeader })._storeHeader;

/** The properties of each slot (its lines, and the field they give way to), in the order slots were first used. */
interface SlotKeys {
  readonly lines: symbol;
  readonly unlessSet: symbol;
}
const slotKeys = new Map<string, SlotKeys>();
const slotOrder: SlotKeys[] = [];

function keysOf(slot: string): SlotKeys {
  let keys = slotKeys.get(slot);
  if (keys === undefined) {
    keys = { lines: Symbol(`headLines:${slot}`), unlessSet: Symbol(`headLinesUnlessSet:${slot}`) };
    slotKeys.set(slot, keys);
    slotOrder.push(keys);
  }
  return keys;
}

type LinesResponse = ServerResponse & Record<symbol, string | undefined>;

function setHeadLines(this: LinesResponse, slot: string, lines: string, unlessSet?: string): void {
  if (this.headersSent) throw new Error(`Cannot set head lines (${slot}) after the head was sent`);
  const keys = keysOf(slot);
  this[keys.lines] = lines;
  if (unlessSet !== undefined || this[keys.unlessSet] !== undefined) this[keys.unlessSet] = unlessSet;
}

/**
 * Whether the headers Node renders name the field `name` (lower case): those set
 * with `setHeader` (Node's own object, lower-case keys) or given to `writeHead`
 * (an object, or an array flat or of pairs, any case).
 */
function namesField(headers: unknown, name: string): boolean {
  if (headers === null || typeof headers !== 'object') return false;
  if (Array.isArray(headers)) {
    const pairs = headers.length > 0 && Array.isArray(headers[0]);
    for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
      const field: unknown = pairs ? (headers[i] as unknown[])[0] : headers[i];
      if (typeof field === 'string' && field.toLowerCase() === name) return true;
    }
    return false;
  }
  for (const field in headers) if (field.toLowerCase() === name) return true;
  return false;
}

function storeHeaderWithLines(this: LinesResponse, firstLine: string, headers: unknown): void {
  let head = firstLine;
  for (let i = 0; i < slotOrder.length; i++) {
    const lines = this[slotOrder[i].lines];
    if (lines === undefined) continue;
    const unlessSet = this[slotOrder[i].unlessSet];
    if (unlessSet === undefined || !namesField(headers, unlessSet)) head += lines;
  }
  (storeHeader as StoreHeader).call(this, head, headers);
}

/**
 * Lets the responses of a `ServerResponse` prototype take head lines
 * (`HeadLinesTarget`), written right after the status line, before what was set
 * with `setHeader`. Each header set with `setHeader` costs a response a
 * validation of its name and value, a lower-cased copy of the name and a stored
 * pair, then a step of its own when the head is rendered; the service's own
 * fields, whose values it makes itself (the security headers, the request id, the
 * rate-limit fields), go out as one string per slot instead. Such fields are not
 * among `getHeaders()`. False (nothing done) when this Node renders heads otherwise.
 */
export function carryHeadLines(prototype: ServerResponse): boolean {
  if (typeof storeHeader !== 'function') return false;
  Object.defineProperties(prototype, {
    setHeadLines: { value: setHeadLines, writable: true, configurable: true },
    // Node renders a response's head once, in `_storeHeader(statusLine, headers)` (from `writeHead`).
    _storeHeader: { value: storeHeaderWithLines, writable: true, configurable: true },
  });
  return true;
}

/** Whether `res` takes head lines (`carryHeadLines`). */
export function takesHeadLines<T extends object>(res: T): res is T & HeadLinesTarget {
  return typeof (res as Partial<HeadLinesTarget>).setHeadLines === 'function';
}

/**
 * Header fields that are the same on every response they go on (the security
 * headers), validated as `setHeader` would and rendered once as head lines.
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

/** Gives `res` the `lines` under `slot`: as head lines when it takes them, else with `setHeader`, one by one. */
export function setFixedHeaders(res: ServerResponse, slot: string, lines: FixedHeaderLines): void {
  if (takesHeadLines(res)) res.setHeadLines(slot, lines.text);
  else for (const [name, value] of lines.headers) res.setHeader(name, value);
}
