import { isIPv4, isIPv6 } from 'node:net';

/** Expands a valid IPv6 address (without zone) to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const embedded: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!isIPv4(last)) return null;
    const [a, b, c, d] = last.split('.').map(Number);
    embedded.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = toGroups(halves[0]);
  const tail = [...(halves.length === 2 ? toGroups(halves[1]) : []), ...embedded];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 0 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(Math.max(0, missing)).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The identity under which a request without a valid key is counted: the IPv4
 * address, or the /64 network of an IPv6 address (one host usually owns a whole
 * /64, so counting single IPv6 addresses would let it rotate freely).
 * `ip` is Express's `req.ip`, which honours `trust proxy` only when configured.
 */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (!groups) return address.toLowerCase();
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
