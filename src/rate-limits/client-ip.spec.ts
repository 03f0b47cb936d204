import { clientAddress } from './client-ip.js';

describe('clientAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:10.1.2.3', '10.1.2.3'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:DB8::ffff', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
  ])('counts %s as %s', (ip, expected) => {
    expect(clientAddress(ip)).toBe(expected);
  });

  it('puts every address of one IPv6 /64 in one bucket, and other /64s apart', () => {
    expect(clientAddress('2001:db8:1:2::a')).toBe(clientAddress('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientAddress('2001:db8:1:2::a')).not.toBe(clientAddress('2001:db8:1:3::a'));
  });

  it('names an unknown address rather than failing', () => {
    expect(clientAddress(undefined)).toBe('unknown');
    expect(clientAddress('')).toBe('unknown');
  });
});
