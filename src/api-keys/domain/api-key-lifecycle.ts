import { MAX_ADDRESS_RULES, parseAddressRule } from '@petstore/auth';
import { KeyLifecycleError } from './api-key.errors.js';

/** How long a rolled key's previous secret keeps working by default: a day. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
/** The longest overlap a roll may ask for: 30 days. */
export const MAX_OVERLAP_SECONDS = 30 * 86_400;

/**
 * When the previous secret of a key rolled at `now` stops working. 0 ends it at
 * once; beyond {@link MAX_OVERLAP_SECONDS} (or not a whole number) is refused.
 */
export function previousKeyExpiry(now: Date, overlapSeconds: number = DEFAULT_OVERLAP_SECONDS): Date {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS) {
    throw new KeyLifecycleError(`overlapSeconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS}`);
  }
  return new Date(now.getTime() + overlapSeconds * 1000);
}

/** An expiry is set in the future (null removes it): a past one would make a key that never worked. */
export function assertExpiryInFuture(expiresAt: Date | null | undefined, now: Date): void {
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new KeyLifecycleError('expiresAt must be in the future (revoke a key to end it now)');
  }
}

/**
 * A key's address rules as stored: each an address or CIDR range, duplicates dropped,
 * 1 to {@link MAX_ADDRESS_RULES} of them (an empty list would lock the key out: send
 * null to allow every address). null stays null.
 */
export function addressRules(rules: readonly string[] | null | undefined): readonly string[] | null | undefined {
  if (rules === undefined || rules === null) return rules;
  const bad = rules.filter((rule) => parseAddressRule(rule) === null);
  if (bad.length > 0) {
    throw new KeyLifecycleError(
      `allowedAddresses must be IPv4 or IPv6 addresses or CIDR ranges: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    );
  }
  const unique = [...new Set(rules)];
  if (unique.length < 1 || unique.length > MAX_ADDRESS_RULES) {
    throw new KeyLifecycleError(`allowedAddresses must list 1 to ${MAX_ADDRESS_RULES} entries (null: any address)`);
  }
  return unique;
}
