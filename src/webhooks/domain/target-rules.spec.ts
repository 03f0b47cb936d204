import { checkAddresses, checkUrl, isPrivateAddress } from './target-rules.js';

const STRICT = { allowHttp: false, allowPrivateTargets: false };
const LOOSE = { allowHttp: true, allowPrivateTargets: true };

describe('webhook target rules', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it('needs https unless http is allowed, and no credentials', () => {
    expect(checkUrl('https://example.com/hook', STRICT)).toBeNull();
    expect(checkUrl('http://example.com/hook', STRICT)).toMatch(/https/);
    expect(checkUrl('http://example.com/hook', LOOSE)).toBeNull();
    expect(checkUrl('ftp://example.com/', LOOSE)).not.toBeNull();
    expect(checkUrl('https://u:p@example.com/', STRICT)).toMatch(/credentials/);
    expect(checkUrl('example.com', STRICT)).toMatch(/absolute/);
  });

  it('refuses a host when any of its addresses is private (a rebinding DNS could pick that one)', () => {
    expect(checkAddresses('h', ['8.8.8.8'], STRICT)).toBeNull();
    expect(checkAddresses('h', ['8.8.8.8', '10.0.0.1'], STRICT)).toMatch(/private/);
    expect(checkAddresses('h', [], STRICT)).toMatch(/does not resolve/);
    expect(checkAddresses('h', ['127.0.0.1'], LOOSE)).toBeNull();
  });
});
