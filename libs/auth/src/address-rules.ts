import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Most address rules a key may carry. */
export const MAX_ADDRESS_RULES = 100;

/** A parsed address rule: one address (a full-length prefix) or a CIDR range. */
export interface AddressRule {
  readonly network: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * Reads `203.0.113.7`, `203.0.113.0/24`, `2001:db8::1` or `2001:db8::/48`; null for
 * anything else (a host name, a zone, a prefix out of range or spelled oddly).
 */
export function parseAddressRule(text: string): AddressRule | null {
  const [network, prefixText, extra] = text.split('/');
  if (extra !== undefined) return null;
  const family = isIPv4(network) ? 'ipv4' : isIPv6(network) && !network.includes('%') ? 'ipv6' : null;
  if (!family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: max, family };
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { network, prefix, family } : null;
}

/** Rules compiled once per list (a resolved key's list is one immutable array). */
const compiled = new WeakMap<readonly string[], BlockList>();

function blockListOf(rules: readonly string[]): BlockList {
  let list = compiled.get(rules);
  if (!list) {
    list = new BlockList();
    for (const text of rules) {
      const rule = parseAddressRule(text);
      if (rule) list.addSubnet(rule.network, rule.prefix, rule.family);
    }
    compiled.set(rules, list);
  }
  return list;
}

/**
 * Whether a request from `ip` (Express's `req.ip`, which honours `TRUST_PROXY`) may use
 * a key restricted to `rules`. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a
 * dual-stack socket reports) is read as its IPv4 address; an unknown address is refused.
 */
export function addressAllowed(rules: readonly string[] | null, ip: string | undefined): boolean {
  if (!rules) return true;
  if (!ip) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped && isIPv4(mapped[1]) ? mapped[1] : ip.split('%')[0];
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  return family !== null && blockListOf(rules).check(address, family);
}
