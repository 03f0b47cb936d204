import type { IncomingHttpHeaders } from 'node:http';

/** What a redacted value is replaced by in the log (pino's `redact` censors with the same text). */
export const REDACTED = '[Redacted]';

/**
 * The headers that carry credentials by their very name: pino's `redact` censors
 * them in a logged `req` (`createRootLogger`), whatever they hold. Other
 * credential-looking headers are `redactHeaders`'s: no path can name them in advance.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);
const NONE: ReadonlySet<string> = new Set();

/** An API key (`psk_…`), also with its underscore percent-encoded (case-sensitive, as keys are: cheaper). */
const KEY_PREFIX = /psk(?:_|%5[fF])/;
/** A key and the rest of its token, in free text or a URL. */
const KEY_TOKEN = /psk(?:_|%5[fF])[\w%-]*/g;
/** Names that say a credential: any of these words anywhere, or a short one as a whole `-`/`_`/`.` segment. */
const CREDENTIAL_NAME =
  /key|token|secret|passw(?:or)?d|auth|session|cookie|signature|credential|(?:^|[-_.])(?:sig|pwd|pass|jwt|sid)(?:$|[-_.])/i;
/** Characters of a parameter name in free text, before its `=`. */
const NAME_CHAR = /[\w.%-]/;
/** Characters that end a value in free text. */
const VALUE_END = /[\s&#"'<>\\,;]/;
/** Both as a table for ASCII (1: name character, 2: ends a value): looked up for every character scanned. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return (NAME_CHAR.test(char) ? 1 : 0) | (VALUE_END.test(char) ? 2 : 0);
});
const isNameChar = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  return code < 128 ? (ASCII_CLASS[code] & 1) !== 0 : NAME_CHAR.test(text[index]);
};
const endsValue = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  return code < 128 ? (ASCII_CLASS[code] & 2) !== 0 : VALUE_END.test(text[index]);
};
/** Longest name looked at before an `=`. */
const MAX_NAME_LENGTH = 100;
/**
 * The verdict on names already seen: header and parameter names repeat from one
 * request to the next, and a lookup is a few times cheaper than the regex.
 * Bounded, since clients choose the names.
 */
const knownNames = new Map<string, boolean>();
const MAX_KNOWN_NAMES = 500;

/**
 * Whether a value contains something shaped like an API key, wherever in it. Every
 * request asks it of its URL, each header value and its log line: the regular
 * expression runs only where `psk` is found at all.
 */
export function looksLikeKey(value: string): boolean {
  return value.includes('psk') && KEY_PREFIX.test(value);
}

/** Whether a header or parameter name suggests a credential (`X-Auth-Token`, `api_key`, `apiKey`, `sig`, …). */
export function isCredentialName(name: string): boolean {
  const known = knownNames.get(name);
  if (known !== undefined) return known;
  const verdict = CREDENTIAL_NAME.test(name) || (name.includes('%') && CREDENTIAL_NAME.test(decodeLeniently(name)));
  if (knownNames.size < MAX_KNOWN_NAMES) knownNames.set(name, verdict);
  return verdict;
}

/**
 * A URL (a request target or an absolute URL) as it may be logged: every path
 * segment that contains a key, and the value of every query parameter whose name
 * suggests a credential or whose value contains a key, become `[Redacted]`.
 * Returns the same string when there is nothing to redact.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const safePath = looksLikeKey(path) ? redactPathSegments(path) : path;
  if (query === -1) return safePath;
  const search = url.slice(query + 1);
  const safeSearch = redactQuery(search);
  return safePath === path && safeSearch === search ? url : `${safePath}?${safeSearch}`;
}

/**
 * Request headers as they may be logged: a header whose name suggests a credential,
 * or whose value contains a key (in any copy of a repeated header), is `[Redacted]`;
 * a URL in a header (`Referer`) keeps its harmless parts. Headers named in
 * `censoredElsewhere` are left as they are (pino's `redact` censors them). Returns
 * the same object when there is nothing to redact, else a copy (in the same order).
 */
export function redactHeaders(
  headers: IncomingHttpHeaders,
  censoredElsewhere: ReadonlySet<string> = NONE,
): IncomingHttpHeaders {
  let copy: IncomingHttpHeaders | undefined;
  for (const name in headers) {
    const value = headers[name];
    const safe = censoredElsewhere.has(name) ? value : safeHeader(name, value);
    if (copy) copy[name] = safe;
    else if (safe !== value) {
      copy = headersBefore(headers, name);
      copy[name] = safe;
    }
  }
  return copy ?? headers;
}

/**
 * A copy of the headers that come before `name`, as they are. Property by property:
 * Node's headers object has no prototype, and V8 keeps such an object as a
 * dictionary, which a spread (`{ ...headers }`) copies about ten times slower.
 */
function headersBefore(headers: IncomingHttpHeaders, name: string): IncomingHttpHeaders {
  const copy: IncomingHttpHeaders = {};
  for (const before in headers) {
    if (before === name) break;
    copy[before] = headers[before];
  }
  return copy;
}

function safeHeader(name: string, value: string | string[] | undefined): string | string[] | undefined {
  if (value === undefined) return value;
  return isCredentialName(name) ? REDACTED : redactHeaderValue(value);
}

/**
 * Free text (a log message, an error message or stack): keys and the values of
 * `name=value` pairs whose name suggests a credential become `[Redacted]`.
 */
export function redactText(text: string): string {
  const safe = looksLikeKey(text) ? text.replace(KEY_TOKEN, REDACTED) : text;
  return safe.includes('=') ? redactNamedValues(safe) : safe;
}

function redactHeaderValue(value: string | string[]): string | string[] {
  if (typeof value !== 'string') return value.some(looksLikeKey) ? REDACTED : value;
  if (looksLikeKey(value)) return REDACTED;
  return value.includes('?') ? redactUrl(value) : value;
}

function redactPathSegments(path: string): string {
  return path
    .split('/')
    .map((segment) => (looksLikeKey(segment) ? REDACTED : segment))
    .join('/');
}

function redactQuery(search: string): string {
  // Parameter by parameter without splitting: most queries have nothing to redact, and are returned as they are.
  let out: string | undefined;
  let copied = 0;
  for (let start = 0; start <= search.length;) {
    const amp = search.indexOf('&', start);
    const end = amp === -1 ? search.length : amp;
    const param = search.slice(start, end);
    const safe = redactParam(param);
    if (safe !== param) {
      out = `${out ?? ''}${search.slice(copied, start)}${safe}`;
      copied = end;
    }
    start = end + 1;
  }
  return out === undefined ? search : out + search.slice(copied);
}

function redactParam(param: string): string {
  const equals = param.indexOf('=');
  const name = equals === -1 ? param : param.slice(0, equals);
  if (looksLikeKey(name)) return REDACTED;
  if (equals === -1) return param;
  return isCredentialName(name) || looksLikeKey(param) ? `${name}=${REDACTED}` : param;
}

/** `name=value` in free text (a URL quoted in a message, `password=…` in an error), in one pass over the `=`s. */
function redactNamedValues(text: string): string {
  let out = '';
  let copied = 0;
  for (let equals = text.indexOf('='); equals !== -1; equals = text.indexOf('=', equals + 1)) {
    let start = equals;
    while (start > 0 && equals - start < MAX_NAME_LENGTH && isNameChar(text, start - 1)) start--;
    if (start === equals || !isCredentialName(text.slice(start, equals))) continue;
    let end = equals + 1;
    while (end < text.length && !endsValue(text, end)) end++;
    if (end === equals + 1) continue;
    out += `${text.slice(copied, equals + 1)}${REDACTED}`;
    copied = end;
    equals = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function decodeLeniently(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
