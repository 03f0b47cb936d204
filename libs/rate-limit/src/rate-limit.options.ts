import type { Request } from 'express';

/** A client's quotas: requests per minute and per day. */
export interface RateLimitQuota {
  readonly perMinute: number;
  readonly perDay: number;
}

/** Whom a request is counted against, as the application identifies it. */
export interface RateLimitClient {
  /** Stable counter id (an opaque string: e.g. an API key's id, or an address). */
  readonly id: string;
  /** The plan whose quotas apply, looked up with `quotaOf` at every request. */
  readonly plan: string;
  /** The client's own quotas, which win over its plan's (e.g. an enterprise key's). */
  readonly limits?: RateLimitQuota | null;
  /**
   * The counter id of the plan's windows when several clients share them (e.g. every
   * key of one account): requests of each count in these windows, while a ban (and the
   * refusals that lead to it) stays this client's own, under `id`. Default: `id`.
   */
  readonly windowsId?: string;
  /**
   * Set when the client could not be identified (e.g. the key store did not answer):
   * the client is then a fallback (its address) whose headers are sent, nothing is
   * counted, and the request is answered with this error unless its path is exempt.
   */
  readonly unverified?: Error;
  /**
   * Set for clients counted without credentials (e.g. by address): routes marked
   * `@SkipThrottleIfIdentified()` count them like any other route.
   */
  readonly anonymous?: boolean;
}

/**
 * Why a request is refused: `limited`, a window is full (the plan's `minute` or
 * `day`, or a route's own limit); `banned`, the client is banned; `unavailable`,
 * the shared storage is down and the limiter fails closed.
 */
export type RateLimitRefusal<Client extends RateLimitClient = RateLimitClient> = {
  readonly client: Client;
  /** Seconds until a retry can succeed. */
  readonly retryAfterSeconds: number;
} & (
  | {
      readonly reason: 'limited';
      readonly window: {
        /** `minute` or `day` for the plan; the throttler name of a route limit (`@Throttle({ name: … })`). */
        readonly name: string;
        readonly limit: number;
        readonly durationMs: number;
        /** Whether it is a route's own limit rather than the plan's. */
        readonly route: boolean;
      };
    }
  | {
      readonly reason: 'banned';
      /** This request started the ban (reported by the one instance whose count crossed the threshold). */
      readonly started?: boolean;
    }
  | { readonly reason: 'unavailable' }
);

/** What the application gives the rate limiter: everything app-specific, passed in. */
export interface RateLimitOptions<Client extends RateLimitClient = RateLimitClient> {
  /** Who sent a request: at once when known without I/O, else a promise; called once per request (by the middleware), never by the guard. */
  readonly identify: (req: Request) => Client | Promise<Client>;
  /** The quotas of a plan; called at every request, so a reloaded plan table applies at once. */
  readonly quotaOf: (plan: string) => RateLimitQuota;
  // Methods, not function properties: the limiter hands back only clients that `identify` made.
  /** The error that answers a refusal (429s, and 503 when failing closed). */
  refusalError(refusal: RateLimitRefusal<Client>): Error;
  /** Told of every 429 (e.g. to count them). */
  onRefusal?(refusal: RateLimitRefusal<Client>): void;
  /**
   * Told of every request the plan counted (allowed, using quota); runs per request, so keep it O(1).
   * A conditional GET is told of when its answer's head is written, and not at all when it is a 304.
   */
  onCounted?(client: Client): void;
  /** Told of every conditional GET answered 304, which the plan does not charge. */
  onNotModified?(client: Client): void;
  /** Paths answered with the headers but never counted nor refused (e.g. health probes). */
  readonly exemptPaths?: readonly string[];
  /** Paths under which everything is answered with the headers but never counted nor refused (e.g. static files). */
  readonly exemptPathPrefixes?: readonly string[];
  /** Shared counters in Redis; absent: counters in this process. */
  readonly redis?: { readonly url: string; readonly keyPrefix: string };
  /** With Redis unreachable: serve, counting in this process (true), or refuse with 503 (false). */
  readonly failOpen: boolean;
  /** A client is banned after more than this × its per-minute quota of refusals within a minute. */
  readonly banThresholdMultiplier: number;
  readonly banDurationSeconds: number;
  /**
   * Whether a counter id is an anonymous client's (e.g. an address): the in-process
   * counters keep at most `maxAnonymousClients` of those, evicting the least recently
   * used; other clients' counters and every ban are never evicted. Default: none is anonymous.
   */
  readonly isAnonymousId?: (id: string) => boolean;
  /** Cap on anonymous clients' in-process counters (default 10,000). */
  readonly maxAnonymousClients?: number;
  /** The clock of the in-process counters, ms since the epoch (default `Date.now`; tests move it). Redis keeps its own. */
  readonly now?: () => number;
}
