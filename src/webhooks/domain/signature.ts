import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The Standard Webhooks headers of one delivery attempt. */
export type DeliveryHeaders = Readonly<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>>;

/**
 * The headers of one message, signed by the `standardwebhooks` package with each
 * of `secrets` (opened, `whsec_…`), newest first: one `v1,<base64>` per secret,
 * space-separated as the specification allows, so that during a rotation a
 * receiver holding either the new or the old secret verifies the message.
 */
export function deliveryHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): DeliveryHeaders {
  if (secrets.length === 0) throw new RangeError('A delivery is signed with at least one secret');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
