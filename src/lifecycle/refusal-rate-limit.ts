import type { Socket } from 'node:net';
import { type RateLimiter, rateLimitHeaders } from '@petstore/rate-limit';
import { addressClient } from '../rate-limits/api-clients.js';

/**
 * The rate-limit side of a refusal made before any request was parsed: without
 * headers there is no API key to go by, so the refusal is counted like any
 * request without a key, against the client's address under the free plan, and
 * answered with that address's `X-RateLimit-*` headers (not `Retry-After`: the
 * refusal is not a 429, and waiting would not mend it).
 *
 * When the peer is a trusted proxy (`TRUST_PROXY`), the client behind it is
 * unknown (its `X-Forwarded-For` was never read): nothing is counted and no
 * headers are sent, rather than the proxy's quota being reported and spent. The
 * same when the limiter's storage is down and failing closed.
 */
export function addressRateLimitHeaders(
  limiter: RateLimiter,
  isTrustedProxy: (address: string) => boolean,
): (socket: Socket) => Promise<Record<string, string> | null> {
  return async (socket) => {
    const address = socket.remoteAddress;
    if (!address || isTrustedProxy(address)) return null;
    try {
      const decision = await limiter.check(addressClient(address));
      const headers = rateLimitHeaders(decision);
      delete headers['Retry-After'];
      return headers;
    } catch {
      return null;
    }
  };
}
