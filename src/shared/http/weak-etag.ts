import { hash } from 'node:crypto';

const EMPTY = 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';

/**
 * Express's own weak ETag, `W/"<byte length in hex>-<SHA-1, base64, 27 characters>"`,
 * computed without the copy of the body into a Buffer and the Hash object Express
 * makes for every response: the same value, so conditional GETs (304) work as before.
 */
export function weakEtag(body: string | Buffer, encoding: BufferEncoding = 'utf8'): string {
  const bytes =
    typeof body === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(body, encoding) : body;
  const length = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.length;
  if (length === 0) return EMPTY;
  return `W/"${length.toString(16)}-${hash('sha1', bytes, 'base64').slice(0, 27)}"`;
}
