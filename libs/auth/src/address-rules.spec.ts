import { addressAllowed, parseAddressRule } from './address-rules.js';

describe('parseAddressRule', () => {
  it('reads addresses and CIDR ranges of both families', () => {
    expect(parseAddressRule('203.0.113.7')).toEqual({ network: '203.0.113.7', prefix: 32, family: 'ipv4' });
    expect(parseAddressRule('10.0.0.0/8')).toEqual({ network: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseAddressRule('2001:db8::/48')).toEqual({ network: '2001:db8::', prefix: 48, family: 'ipv6' });
    expect(parseAddressRule('::1')).toEqual({ network: '::1', prefix: 128, family: 'ipv6' });
    expect(parseAddressRule('0.0.0.0/0')).toEqual({ network: '0.0.0.0', prefix: 0, family: 'ipv4' });
  });

  it.each([
    'example.com',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/8/8',
    'fe80::1%eth0',
    '',
    '1.2.3',
  ])('refuses %j', (text) => expect(parseAddressRule(text)).toBeNull());
});

describe('addressAllowed', () => {
  const rules = ['203.0.113.0/24', '198.51.100.7', '2001:db8:1::/48'];

  it('allows any address when the key has no rules', () => {
    expect(addressAllowed(null, '192.0.2.1')).toBe(true);
    expect(addressAllowed(null, undefined)).toBe(true);
  });

  it('allows an address inside a range or equal to a listed address', () => {
    expect(addressAllowed(rules, '203.0.113.250')).toBe(true);
    expect(addressAllowed(rules, '198.51.100.7')).toBe(true);
    expect(addressAllowed(rules, '2001:db8:1:ffff::1')).toBe(true);
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressAllowed(rules, '::ffff:203.0.113.9')).toBe(true);
    expect(addressAllowed(rules, '::ffff:192.0.2.9')).toBe(false);
  });

  it('refuses other addresses, other families and an unknown address', () => {
    expect(addressAllowed(rules, '203.0.114.1')).toBe(false);
    expect(addressAllowed(rules, '198.51.100.8')).toBe(false);
    expect(addressAllowed(rules, '2001:db8:2::1')).toBe(false);
    expect(addressAllowed(['203.0.113.0/24'], '2001:db8:1::1')).toBe(false);
    expect(addressAllowed(rules, undefined)).toBe(false);
    expect(addressAllowed(rules, 'not-an-address')).toBe(false);
  });
});
