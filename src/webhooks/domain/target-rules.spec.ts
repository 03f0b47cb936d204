import { checkAddresses, checkUrl, type TargetPolicy } from './target-rules.js';

const STRICT: TargetPolicy = { allowHttp: false, allowPrivateTargets: false, allowedPorts: [443] };
const WITH_HTTP: TargetPolicy = { allowHttp: true, allowPrivateTargets: false, allowedPorts: [443, 80] };
const TESTS: TargetPolicy = { allowHttp: true, allowPrivateTargets: true, allowedPorts: 'any' };

describe('webhook target rules', () => {
  describe('a URL naming a forbidden address, in any spelling the URL parser accepts', () => {
    it.each([
      ['dotted loopback', 'https://127.0.0.1/h'],
      ['loopback as one decimal number', 'https://2130706433/h'],
      ['loopback in octal', 'https://0177.0.0.1/h'],
      ['loopback in hex, two parts', 'https://0x7f.1/h'],
      ['loopback in hex, one number', 'https://0x7f000001/h'],
      ['loopback in hex, four parts', 'https://0x7f.0x0.0x0.0x1/h'],
      ['loopback in octal, one number', 'https://017700000001/h'],
      ['loopback, short form', 'https://127.1/h'],
      ['loopback with a trailing dot', 'https://127.0.0.1./h'],
      ['loopback percent-encoded', 'https://%31%32%37.0.0.1/h'],
      ['loopback in full-width digits', 'https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/h'],
      ['"this" network as 0', 'https://0/h'],
      ['private as one number', 'https://167772161/h'],
      ['metadata', 'https://169.254.169.254/latest/meta-data'],
      ['metadata in hex', 'https://0xa9fea9fe/'],
      ['Alibaba metadata', 'https://100.100.100.200/'],
      ['Azure wire server', 'https://168.63.129.16/'],
      ['broadcast', 'https://255.255.255.255/'],
      ['IPv6 loopback', 'https://[::1]/h'],
      ['IPv6 loopback in full', 'https://[0:0:0:0:0:0:0:1]/h'],
      ['IPv6 unspecified', 'https://[::]/h'],
      ['IPv4-mapped, dotted', 'https://[::ffff:127.0.0.1]/h'],
      ['IPv4-mapped, hex', 'https://[::ffff:7f00:1]/h'],
      ['IPv4-mapped, uncompressed', 'https://[0:0:0:0:0:ffff:7f00:1]/h'],
      ['IPv4-mapped, upper case', 'https://[::FFFF:7F00:1]/h'],
      ['IPv4-translated', 'https://[::ffff:0:7f00:1]/h'],
      ['IPv4-compatible, hex', 'https://[::7f00:1]/h'],
      ['IPv4-compatible, dotted', 'https://[::127.0.0.1]/h'],
      ['NAT64 of metadata', 'https://[64:ff9b::a9fe:a9fe]/h'],
      ['NAT64 of loopback, dotted', 'https://[64:ff9b::127.0.0.1]/h'],
      ['local-use NAT64', 'https://[64:ff9b:1::8.8.8.8]/h'],
      ['6to4', 'https://[2002:7f00:1::]/h'],
      ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h'],
      ['documentation IPv6', 'https://[2001:db8::1]/h'],
      ['unique local (AWS metadata)', 'https://[fd00:ec2::254]/'],
      ['link-local IPv6', 'https://[fe80::1]/h'],
      ['site-local IPv6', 'https://[fec0::1]/h'],
      ['multicast IPv6', 'https://[ff02::1]/h'],
      ['discard-only IPv6', 'https://[100::1]/h'],
    ])('refuses %s (%s)', (_name, url) => {
      expect(checkUrl(url, STRICT)).toMatch(/ is in /);
    });
  });

  describe('a URL in a forbidden form', () => {
    it.each([
      ['http', 'http://example.com/hook', STRICT, /must use https/],
      ['another scheme', 'ftp://example.com/', WITH_HTTP, /https or http/],
      ['a file URL', 'file:///etc/passwd', STRICT, /https/],
      ['credentials', 'https://u:p@example.com/', STRICT, /credentials/],
      ['a user only', 'https://u@example.com/', STRICT, /credentials/],
      ['not absolute', 'example.com', STRICT, /absolute/],
      ['an invalid IPv4', 'https://256.0.0.1/', STRICT, /absolute/],
      ['a zone id', 'https://[fe80::1%25eth0]/', STRICT, /absolute/],
      ['port 80 over https in production', 'https://example.com:80/', STRICT, /port 80 is not allowed/],
      ['another port', 'https://example.com:8443/', STRICT, /port 8443 is not allowed \(allowed: 443\)/],
      ['another port with http', 'http://example.com:8080/', WITH_HTTP, /port 8080/],
      ['localhost', 'https://localhost/h', STRICT, /single-label/],
      ['localhost, upper case, trailing dot', 'https://LOCALHOST./h', STRICT, /single-label/],
      ['a name under .localhost', 'https://app.localhost/h', STRICT, /\.localhost/],
      ['mDNS', 'https://printer.local/h', STRICT, /\.local,/],
      ['GCP metadata', 'https://metadata.google.internal/', STRICT, /\.internal/],
      ['a single-label name (metadata)', 'https://metadata/computeMetadata/v1/', STRICT, /single-label/],
      ['home.arpa', 'https://router.home.arpa/', STRICT, /\.arpa/],
      ['reverse DNS', 'https://1.0.0.127.in-addr.arpa/', STRICT, /\.arpa/],
      ['.invalid', 'https://no-such-host.invalid/', STRICT, /\.invalid/],
      ['.onion', 'https://abc.onion/', STRICT, /\.onion/],
      ['.alt', 'https://abc.alt/', STRICT, /\.alt/],
    ])('refuses %s (%s)', (_name, url, policy, reason) => {
      expect(checkUrl(url, policy)).toMatch(reason);
    });
  });

  it.each([
    ['a public name', 'https://shop.example.com/hooks/petstore', STRICT],
    ['port 443 named', 'https://shop.example.com:443/h', STRICT],
    ['a public IPv4', 'https://8.8.8.8/h', STRICT],
    ['a public IPv6', 'https://[2606:4700:4700::1111]/h', STRICT],
    ['IPv4-mapped public', 'https://[::ffff:8.8.8.8]/h', STRICT],
    ['a name not in DNS yet', 'https://not-yet.example/h', STRICT],
    ['http on 80 where allowed', 'http://shop.example.com/h', WITH_HTTP],
    ['https on 80 where http is allowed', 'https://shop.example.com:80/h', WITH_HTTP],
    ['loopback on any port in tests', 'http://127.0.0.1:54321/h', TESTS],
    ['localhost in tests', 'http://localhost:8080/h', TESTS],
  ])('allows %s (%s)', (_name, url, policy) => {
    expect(checkUrl(url, policy)).toBeNull();
  });

  it('allows the ports WEBHOOKS_ALLOWED_PORTS lists, and only those', () => {
    const policy: TargetPolicy = { ...STRICT, allowedPorts: [8443] };
    expect(checkUrl('https://shop.example.com:8443/', policy)).toBeNull();
    expect(checkUrl('https://shop.example.com/', policy)).toMatch(/port 443 is not allowed/);
  });

  it('refuses a host when any of its addresses is forbidden (a rebinding DNS could pick that one)', () => {
    expect(checkAddresses('h', ['8.8.8.8'], STRICT)).toBeNull();
    expect(checkAddresses('h', ['8.8.8.8', '2606:4700:4700::1111'], STRICT)).toBeNull();
    expect(checkAddresses('h', ['8.8.8.8', '10.0.0.1'], STRICT)).toBe(
      'h resolves to 10.0.0.1, in 10.0.0.0/8, private-use',
    );
    expect(checkAddresses('h', ['8.8.8.8', '::ffff:7f00:1'], STRICT)).toMatch(/IPv4-mapped 127\.0\.0\.1/);
    expect(checkAddresses('h', [], STRICT)).toMatch(/does not resolve/);
    expect(checkAddresses('h', ['127.0.0.1'], TESTS)).toBeNull();
  });
});
