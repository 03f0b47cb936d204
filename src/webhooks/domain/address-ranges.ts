import { BlockList, isIP } from 'node:net';

/**
 * The address ranges a webhook may never reach: the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (every entry, globally reachable or not: no receiver lives there),
 * multicast, the reserved and deprecated blocks, and the cloud metadata hosts. IPv6 is
 * allowed only inside 2000::/3, the block allocated for global unicast.
 */
const IPV4_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', '"this" network'],
  ['10.0.0.0/8', 'private-use'],
  ['100.64.0.0/10', 'shared address space (carrier-grade NAT; Alibaba Cloud metadata 100.100.100.200)'],
  ['127.0.0.0/8', 'loopback'],
  ['168.63.129.16/32', 'Azure platform host (wire server)'],
  ['169.254.0.0/16', 'link-local (cloud metadata 169.254.169.254)'],
  ['172.16.0.0/12', 'private-use'],
  ['192.0.0.0/24', 'IETF protocol assignments (Oracle Cloud metadata 192.0.0.192)'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112-v4'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private-use'],
  ['192.175.48.0/24', 'direct delegation AS112 service'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved (255.255.255.255: limited broadcast)'],
];

/** Checked in order: the first match names the refusal, so narrower entries come before the blocks holding them. */
const IPV6_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['::ffff:0:0:0/96', 'IPv4-translated'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['100:0:0:1::/64', 'dummy prefix'],
  ['2001::/32', 'Teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'ORCHID (deprecated)'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing (SRv6) SIDs'],
  ['fc00::/7', 'unique local (cloud metadata fd00:ec2::254)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
  ['::/3', 'outside global unicast (2000::/3)'],
  ['4000::/2', 'outside global unicast (2000::/3)'],
  ['8000::/1', 'outside global unicast (2000::/3)'],
];

interface Range {
  readonly cidr: string;
  readonly name: string;
  readonly list: BlockList;
}

function ranges(table: ReadonlyArray<readonly [string, string]>, family: 'ipv4' | 'ipv6'): Range[] {
  return table.map(([cidr, name]) => {
    const [network, prefix] = cidr.split('/');
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { cidr, name, list };
  });
}

const V4 = ranges(IPV4_RANGES, 'ipv4');
const V6 = ranges(IPV6_RANGES, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (the URL parser canonicalises every spelling first). */
function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = canonical.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [high, low] = [parse(head), parse(tail)];
  return [...high, ...Array<number>(8 - high.length - low.length).fill(0), ...low];
}

function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The IPv4 address an IPv6 address carries when it stands for one (IPv4-mapped, or the well-known NAT64 prefix). */
function embeddedIPv4(groups: readonly number[]): { readonly kind: string; readonly address: string } | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return { kind: 'IPv4-mapped', address: dotted(groups[6], groups[7]) };
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6))
    return { kind: 'NAT64', address: dotted(groups[6], groups[7]) };
  return null;
}

function firstMatch(candidates: readonly Range[], address: string, family: 'ipv4' | 'ipv6'): string | null {
  const range = candidates.find((candidate) => candidate.list.check(address, family));
  return range ? `${range.cidr}, ${range.name}` : null;
}

/**
 * Why a webhook may not connect to this IP address (the range it falls in, e.g.
 * `127.0.0.0/8, loopback`), or null for a public address. Anything that is not an IP
 * address is refused too: never connect to it.
 */
export function forbiddenRange(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return firstMatch(V4, address, 'ipv4');
  if (family !== 6) return 'not an IP address';
  if (address.includes('%')) return 'a scoped (zone) IPv6 address';
  const groups = ipv6Groups(address);
  if (!groups) return 'not an IP address';
  const embedded = embeddedIPv4(groups);
  if (embedded) {
    const range = firstMatch(V4, embedded.address, 'ipv4');
    return range && `${embedded.kind} ${embedded.address} (${range})`;
  }
  return firstMatch(V6, groups.map((group) => group.toString(16)).join(':'), 'ipv6');
}

/** Whether two spellings name one IP address (`::ffff:7f00:1` and `::ffff:127.0.0.1` do). */
export function sameAddress(a: string, b: string): boolean {
  if (isIP(a) !== isIP(b)) return false;
  if (isIP(a) === 4) return a === b;
  const [groupsA, groupsB] = [ipv6Groups(a), ipv6Groups(b)];
  return groupsA !== null && groupsB !== null && groupsA.every((group, i) => group === groupsB[i]);
}
