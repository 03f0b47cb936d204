import type { ActiveBan } from '@petstore/rate-limit';
import { clientAddress } from './client-ip.js';

/** Why a client is banned: it kept sending after 429s, or a route's own `@Throttle` window blocked it. */
export type BanCause = 'ignored_429s' | 'route_block';

/** A ban in force, as an administrator reads it. */
export interface BanView {
  readonly kind: 'key' | 'address';
  /** The key's id (kind `key`). */
  readonly keyId?: number;
  /** The address (kind `address`): IPv4, or an IPv6 client's /64 (`2001:db8:aa:1::/64`). */
  readonly address?: string;
  /** When the ban ends (ms since the epoch). */
  readonly until: number;
  readonly cause: BanCause;
  /** The throttler name of the route limit that blocked (cause `route_block`). */
  readonly limit?: string;
}

// The counter ids this service gives (api-clients.ts), and the throttler adapter's route counters.
const KEY_ID = /^k(\d+)\.[0-9a-z]+$/;
const ADDRESS = 'ip:';
const ROUTE = 'throttler:';

/** Who a counter id belongs to, or null for an id this service does not make. */
function holderOf(clientId: string): Pick<BanView, 'kind' | 'keyId' | 'address'> | null {
  const key = KEY_ID.exec(clientId);
  if (key) return { kind: 'key', keyId: Number(key[1]) };
  if (clientId.startsWith(ADDRESS)) return { kind: 'address', address: clientId.slice(ADDRESS.length) };
  return null;
}

/**
 * A storage's ban as an administrator reads it: a plan ban of a key or an address, or
 * a route block (`throttler:<client id>:<throttler>:<Controller.handler>`, whose route
 * is not shown: it names code, not the API). Null for counters of no key or address.
 */
export function banView(ban: ActiveBan): BanView | null {
  if (!ban.client.startsWith(ROUTE)) {
    const holder = holderOf(ban.client);
    return holder && { ...holder, until: ban.until, cause: 'ignored_429s' };
  }
  const rest = ban.client.slice(ROUTE.length);
  const handlerAt = rest.lastIndexOf(':');
  const nameAt = handlerAt > 0 ? rest.lastIndexOf(':', handlerAt - 1) : -1;
  if (nameAt <= 0) return null;
  const holder = holderOf(rest.slice(0, nameAt));
  return holder && { ...holder, until: ban.until, cause: 'route_block', limit: rest.slice(nameAt + 1, handlerAt) };
}

/** Bans in force, soonest to end first, then keys before addresses (a stable order for a listing). */
export function banViews(bans: readonly ActiveBan[]): BanView[] {
  return bans
    .map(banView)
    .filter((ban): ban is BanView => ban !== null)
    .sort((a, b) => a.until - b.until || a.kind.localeCompare(b.kind));
}

/**
 * The counter ids to clear to lift every ban of an address: its plan ban, and the
 * route blocks of the same client among `bans`. `address` is an IP address or an
 * IPv6 /64 as listed (`2001:db8:aa:1::/64`).
 */
export function addressBanIds(address: string, bans: readonly ActiveBan[]): string[] {
  const id = `${ADDRESS}${clientAddress(address.endsWith('/64') ? address.slice(0, -3) : address)}`;
  const routePrefix = `${ROUTE}${id}:`;
  return [id, ...bans.filter((ban) => ban.client.startsWith(routePrefix)).map((ban) => ban.client)];
}
