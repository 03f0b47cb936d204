import { hash, randomBytes } from 'node:crypto';

const PREFIX = 'psk_';
/** Characters of the key kept in clear to recognise it in listings. */
const VISIBLE_CHARS = 12;

/** A fresh key: `psk_` + 256 random bits in base64url (43 characters). */
export function generateApiKeySecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 hex of the key: the only form the service stores. One-shot: every request with a key hashes it. */
export function hashApiKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function visiblePrefix(secret: string): string {
  return secret.slice(0, VISIBLE_CHARS);
}
