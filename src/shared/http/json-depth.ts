const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the JSON text in `bytes` nests objects and arrays deeper than `maxDepth`.
 * Scans the raw bytes once (brackets inside strings do not count), so a body is
 * refused before `JSON.parse` and the validators walk it recursively.
 */
export function nestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  // Each level takes at least two bytes: a shorter text cannot nest that deep.
  if (bytes.length <= maxDepth * 2) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
