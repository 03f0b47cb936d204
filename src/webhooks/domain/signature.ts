import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification:
 * `v1,` and the base64 HMAC-SHA256, keyed with the secret's decoded base64 part,
 * of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signatureHeader(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
