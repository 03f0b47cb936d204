import { hash } from 'node:crypto';
import { ValidationFailedError } from '@petstore/errors';
import type { IdempotencyToken } from '../application/orders.service.js';

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The Idempotency-Key header (1–255 visible ASCII characters) and the body's fingerprint. */
export function idempotencyToken(header: string | undefined, body: unknown): IdempotencyToken | undefined {
  if (header === undefined) return undefined;
  if (!VALID_KEY.test(header)) {
    throw new ValidationFailedError(['Idempotency-Key must be 1 to 255 visible ASCII characters']);
  }
  return { key: header, requestHash: hash('sha256', canonical(body), 'hex') };
}
