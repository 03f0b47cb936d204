/**
 * Opaque cursors: base64url of `v1:<last id>`. Clients must not build them; the
 * version prefix lets the format change without breaking links already handed out.
 */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`v1:${lastId}`, 'utf8').toString('base64url');
}

/** The id after which the next page starts, or null when the cursor is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = /^v1:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
