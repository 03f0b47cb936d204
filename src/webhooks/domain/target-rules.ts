import { isIP } from 'node:net';
import { forbiddenRange } from './address-ranges.js';

/** What the configuration allows beyond public `https://` targets on port 443. */
export interface TargetPolicy {
  readonly allowHttp: boolean;
  readonly allowPrivateTargets: boolean;
  /** Ports a URL may name (its scheme's default when it names none); `any`: every port (tests only). */
  readonly allowedPorts: readonly number[] | 'any';
}

/** Why a URL or an address is refused, for the 422's message; null when allowed. */
export type Refusal = string | null;

/**
 * Special-use domain names (RFC 6761 and the IANA registry, plus `.internal`, reserved for
 * private use): they name this host or a local network, or never resolve in public DNS.
 * `.test` and `.example` are left to resolution (they fail there), so tests may use them.
 */
const LOCAL_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'arpa', 'invalid', 'onion', 'alt'];

/** The host as the connection will use it: IPv6 without brackets, no trailing dot. */
export function bareHost(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

function checkHostName(host: string): Refusal {
  if (!host.includes('.')) return `${host} is a single-label name (resolved through local search domains)`;
  const suffix = LOCAL_NAME_SUFFIXES.find((name) => host === name || host.endsWith(`.${name}`));
  return suffix ? `${host} is under .${suffix}, a special-use name that public DNS does not serve` : null;
}

/**
 * Checks what the URL alone tells: scheme, no credentials, an allowed port, and a host
 * that is neither a forbidden address (in any spelling: the URL parser turns `2130706433`,
 * `0177.0.0.1`, `0x7f.1`, `127.1` and every IPv6 form into one canonical address) nor a
 * local-only name. The addresses a name resolves to are checked at each delivery.
 */
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
  const host = bareHost(url.hostname);
  if (!host) return 'url has no host';
  const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
  if (policy.allowedPorts !== 'any' && !policy.allowedPorts.includes(port))
    return `port ${port} is not allowed (allowed: ${policy.allowedPorts.join(', ')})`;
  if (policy.allowPrivateTargets) return null;
  if (isIP(host)) {
    const range = forbiddenRange(host);
    return range && `${host} is in ${range}`;
  }
  return checkHostName(host);
}

/** Checks the addresses a host resolved to: every one must be allowed (else a rebinding DNS could pick another). */
export function checkAddresses(host: string, addresses: readonly string[], policy: TargetPolicy): Refusal {
  if (addresses.length === 0) return `${host} does not resolve`;
  if (policy.allowPrivateTargets) return null;
  for (const address of addresses) {
    const range = forbiddenRange(address);
    if (range) return `${host} resolves to ${address}, in ${range}`;
  }
  return null;
}
