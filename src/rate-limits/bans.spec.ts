import { addressBanIds, banView, banViews } from './bans.js';

describe('bans as an administrator reads them', () => {
  it('a key, an address and an IPv6 /64 banned for ignoring 429s', () => {
    expect(banView({ client: 'k42.mh3x9k0', until: 5 })).toEqual({
      kind: 'key',
      keyId: 42,
      until: 5,
      cause: 'ignored_429s',
    });
    expect(banView({ client: 'ip:203.0.113.7', until: 5 })).toEqual({
      kind: 'address',
      address: '203.0.113.7',
      until: 5,
      cause: 'ignored_429s',
    });
    expect(banView({ client: 'ip:2001:db8:aa:1::/64', until: 5 })).toMatchObject({ address: '2001:db8:aa:1::/64' });
  });

  it("a route's own block, naming its limit, for a key and an IPv6 /64", () => {
    expect(banView({ client: 'throttler:k7.abc:export:ExportController.run', until: 9 })).toEqual({
      kind: 'key',
      keyId: 7,
      until: 9,
      cause: 'route_block',
      limit: 'export',
    });
    expect(banView({ client: 'throttler:ip:2001:db8:aa:1::/64:burst:C.h', until: 9 })).toEqual({
      kind: 'address',
      address: '2001:db8:aa:1::/64',
      until: 9,
      cause: 'route_block',
      limit: 'burst',
    });
  });

  it('leaves out counters of no key or address, and orders by end', () => {
    expect(
      banViews([
        { client: 'other', until: 1 },
        { client: 'throttler:x', until: 1 },
      ]),
    ).toEqual([]);
    const views = banViews([
      { client: 'ip:198.51.100.1', until: 30 },
      { client: 'k1.a', until: 20 },
    ]);
    expect(views.map((v) => v.until)).toEqual([20, 30]);
  });

  it('lifting an address clears its plan ban and its route blocks, an IPv6 address as its /64', () => {
    const bans = [
      { client: 'throttler:ip:2001:db8:aa:1::/64:burst:C.h', until: 1 },
      { client: 'throttler:ip:2001:db8:aa:2::/64:burst:C.h', until: 1 },
      { client: 'throttler:ip:203.0.113.70:burst:C.h', until: 1 },
    ];
    expect(addressBanIds('2001:db8:aa:1::99', bans)).toEqual([
      'ip:2001:db8:aa:1::/64',
      'throttler:ip:2001:db8:aa:1::/64:burst:C.h',
    ]);
    expect(addressBanIds('2001:db8:aa:1::/64', bans)[0]).toBe('ip:2001:db8:aa:1::/64');
    expect(addressBanIds('203.0.113.7', bans)).toEqual(['ip:203.0.113.7']); // not 203.0.113.70's
  });
});
