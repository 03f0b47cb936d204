import { KeyLifecycleError } from './api-key.errors.js';
import {
  addressRules,
  assertExpiryInFuture,
  DEFAULT_OVERLAP_SECONDS,
  MAX_OVERLAP_SECONDS,
  previousKeyExpiry,
} from './api-key-lifecycle.js';

const NOW = new Date('2026-11-28T10:00:00Z');

describe('previousKeyExpiry', () => {
  it('defaults to a day of overlap', () => {
    expect(previousKeyExpiry(NOW)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(DEFAULT_OVERLAP_SECONDS).toBe(86_400);
  });

  it('allows 0 (the previous secret ends at once) and up to 30 days', () => {
    expect(previousKeyExpiry(NOW, 0)).toEqual(NOW);
    expect(previousKeyExpiry(NOW, MAX_OVERLAP_SECONDS)).toEqual(new Date('2026-12-28T10:00:00Z'));
  });

  it.each([-1, MAX_OVERLAP_SECONDS + 1, 1.5, Number.NaN])('refuses %p seconds', (seconds) => {
    expect(() => previousKeyExpiry(NOW, seconds)).toThrow(KeyLifecycleError);
  });
});

describe('assertExpiryInFuture', () => {
  it('accepts a future expiry, none, or its removal', () => {
    expect(() => assertExpiryInFuture(new Date(NOW.getTime() + 1), NOW)).not.toThrow();
    expect(() => assertExpiryInFuture(undefined, NOW)).not.toThrow();
    expect(() => assertExpiryInFuture(null, NOW)).not.toThrow();
  });

  it('refuses now and the past as VALIDATION_FAILED', () => {
    expect(() => assertExpiryInFuture(NOW, NOW)).toThrow('expiresAt must be in the future');
    try {
      assertExpiryInFuture(new Date('2020-01-01T00:00:00Z'), NOW);
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'validation' });
    }
  });
});

describe('addressRules', () => {
  it('keeps valid rules, without duplicates; null and absent stay as they are', () => {
    expect(addressRules(['10.0.0.0/8', '2001:db8::/32', '10.0.0.0/8'])).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(addressRules(null)).toBeNull();
    expect(addressRules(undefined)).toBeUndefined();
  });

  it('names every rule that is not an address or range', () => {
    expect(() => addressRules(['10.0.0.0/8', 'example.com', '10.0.0.0/40'])).toThrow(
      'allowedAddresses must be IPv4 or IPv6 addresses or CIDR ranges: "example.com", "10.0.0.0/40"',
    );
  });

  it('refuses an empty list (null allows every address)', () => {
    expect(() => addressRules([])).toThrow('allowedAddresses must list 1 to 100 entries');
  });
});
