import { BlockList, isIP } from 'node:net';

/** What the configuration allows beyond public `https://` targets. */
export interface TargetPolicy {
  readonly allowHttp: boolean;
  readonly allowPrivateTargets: boolean;
}

/** Why a URL or an address is refused, for the 422's message; null when allowed. */
export type Refusal = string | null;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (also AWS's metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address stands for (`::ffff:127.0.0.1`). */
function embeddedIPv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is loopback, private, link-local, metadata, multicast or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(address.toLowerCase());
    return v4 !== null ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true; // not an address at all: never connect to it
}

/** Checks the URL's form: scheme, no credentials, a host. The addresses it resolves to are checked apart. */
export function checkUrl(raw: string, policy: TargetPolicy): Refusal {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return policy.allowHttp ? 'url must use https or http' : 'url must use https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (!url.hostname) return 'url has no host';
  return null;
}

/** Checks the addresses a host resolved to: every one must be public (else a rebinding DNS could pick the other). */
export function checkAddresses(host: string, addresses: readonly string[], policy: TargetPolicy): Refusal {
  if (addresses.length === 0) return `${host} does not resolve`;
  if (policy.allowPrivateTargets) return null;
  const refused = addresses.find(isPrivateAddress);
  return refused === undefined ? null : `${host} resolves to a loopback, private, link-local or reserved address`;
}
