import { compileTrustProxy } from './trust-proxy.js';

describe('compileTrustProxy', () => {
  it('trusts nothing when unset or false', () => {
    for (const value of [undefined, 'false']) expect(compileTrustProxy(value)('127.0.0.1', 0)).toBe(false);
  });

  it('trusts every hop when true', () => {
    expect(compileTrustProxy('true')('203.0.113.9', 5)).toBe(true);
  });

  it('trusts a number of hops, counted from the server', () => {
    const trust = compileTrustProxy('2');
    expect([0, 1, 2].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false]);
    expect(compileTrustProxy('0')('127.0.0.1', 0)).toBe(false);
  });

  it('trusts listed addresses, subnets and named ranges, whatever the hop', () => {
    const trust = compileTrustProxy('loopback, 10.0.0.0/8,203.0.113.7');
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '203.0.113.7'].map((a) => trust(a, 3))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['203.0.113.8', '192.168.0.1'].map((a) => trust(a, 0))).toEqual([false, false]);
  });

  it('refuses what is not an address, as Express does when the setting is made', () => {
    expect(() => compileTrustProxy('not-an-address')).toThrow(TypeError);
  });
});
