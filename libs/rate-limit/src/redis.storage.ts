import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { HitOutcome, HitRequest, HitResult, WindowCount, WindowRule } from './fixed-window.js';
import { type ActiveBan, RateLimitStorageUnavailableError, type RateLimitStorage } from './rate-limit.storage.js';
import { HIT_SCRIPT, REFUND_SCRIPT } from './redis-hit.script.js';

export interface RedisStorageOptions {
  readonly url: string;
  /** Prepended to every key, e.g. `petstore:rl:`. */
  readonly keyPrefix: string;
  /** A command slower than this counts as a failure (the limiter then fails open or closed). */
  readonly commandTimeoutMs?: number;
  /** Told when Redis becomes unreachable or reachable again. */
  readonly onHealthChange?: (healthy: boolean, detail: string) => void;
}

const OUTCOMES: readonly HitOutcome[] = ['allowed', 'limited', 'banned', 'banned'];
/** The script's outcome for the request that started a ban. */
const BAN_STARTED = 3;
/** At most this many bans are listed (the index itself is pruned of ended bans at each listing). */
export const MAX_LISTED_BANS = 10_000;
/** How long start-up waits for a first connection to Redis. */
const STARTUP_WAIT_MS = 3_000;

/**
 * Counters shared by every instance in Redis. Each request is one `EVALSHA` of
 * `HIT_SCRIPT`, which checks and counts both windows and the ban rule atomically,
 * so N instances together allow exactly the plan's limit. The script is loaded
 * on every (re)connection; a NOSCRIPT reply (Redis restarted or flushed its
 * script cache) reloads it once. While Redis is unreachable, calls fail at once
 * (no offline queue) with `RateLimitStorageUnavailableError`.
 */
export class RedisRateLimitStorage implements RateLimitStorage {
  readonly kind = 'redis';
  private readonly sha = createHash('sha1').update(HIT_SCRIPT).digest('hex');
  private healthy = false;
  private lastProblem = 'not connected yet';
  private readyWaiters: Array<() => void> = [];

  /** Loads the Redis client (only where Redis is configured: it is ~20 ms of a start) and connects. */
  static async connect(options: RedisStorageOptions): Promise<RedisRateLimitStorage> {
    const { Redis } = await import('ioredis');
    const redis = new Redis(options.url, {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    return new RedisRateLimitStorage(options, redis);
  }

  private constructor(
    private readonly options: RedisStorageOptions,
    private readonly redis: Redis,
  ) {
    this.redis.on('ready', () => {
      this.loadScript().then(
        () => this.setHealthy(true, 'connected'),
        (error: unknown) => this.setHealthy(false, describe(error)),
      );
    });
    this.redis.on('error', (error: unknown) => this.setHealthy(false, describe(error)));
    this.redis.on('end', () => this.setHealthy(false, 'connection closed'));
  }

  /**
   * Resolves once Redis answers (script loaded), or after `timeoutMs` with false.
   * Called at start-up so that the first requests are counted in Redis, not
   * locally; a Redis that stays down does not stop the service (fail open).
   */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.isHealthy()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.whenReady(STARTUP_WAIT_MS);
  }

  async hit(client: string, request: HitRequest, windowsOf: string = client): Promise<HitResult> {
    // Shared windows (an account's) are another client's keys: on a single Redis server (or where both
    // hash tags fall in one slot) the script still reads and counts them atomically with the ban.
    const keys = [
      ...request.windows.map((rule) => this.key(windowsOf, `w${rule.durationMs}`)),
      this.key(client, 'rej'),
      this.key(client, 'ban'),
    ];
    const args: Array<string | number> = [
      request.windows.length,
      request.consume ? 1 : 0,
      request.ban ? request.ban.threshold : -1,
      request.ban ? request.ban.durationMs : 0,
      request.ban ? request.ban.windowMs : 0,
      ...request.windows.flatMap((rule) => [rule.limit, rule.durationMs]),
    ];
    const reply = await this.run(keys, args);
    const result = parseReply(reply, request.windows.length);
    // The index of bans lives outside the client's hash slot (one sorted set for all), so it is written
    // here rather than by the script; only the request that started a ban writes it, once.
    if (result.banStarted && result.banUntil !== null) await this.indexBan(client, result.banUntil);
    return result;
  }

  async unban(client: string): Promise<void> {
    this.assertReady();
    try {
      await this.redis.del(this.key(client, 'ban'), this.key(client, 'rej'));
      await this.redis.zrem(this.banIndexKey(), client);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async refund(client: string, windows: readonly WindowRule[], resetAts: readonly number[]): Promise<void> {
    this.assertReady();
    const keys: string[] = [];
    const ends: number[] = [];
    windows.forEach((rule, i) => {
      const key = this.key(client, `w${rule.durationMs}`);
      if (keys.includes(key)) return; // windows of one length share one counter
      keys.push(key);
      ends.push(resetAts[i] ?? -1);
    });
    try {
      await this.redis.eval(REFUND_SCRIPT, keys.length, ...keys, ...ends);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** The index (a sorted set by end of ban), pruned of ended bans first: two commands, bounded. */
  async bans(): Promise<ActiveBan[]> {
    this.assertReady();
    try {
      const [seconds, micros] = await this.redis.time();
      const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const index = this.banIndexKey();
      await this.redis.zremrangebyscore(index, '-inf', `(${now}`);
      const flat = await this.redis.zrangebyscore(index, now, '+inf', 'WITHSCORES', 'LIMIT', 0, MAX_LISTED_BANS);
      const bans: ActiveBan[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) bans.push({ client: flat[i], until: Number(flat[i + 1]) });
      return bans;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async indexBan(client: string, until: number): Promise<void> {
    try {
      await this.redis.zadd(this.banIndexKey(), until, client);
    } catch (error) {
      // The ban itself is in force (the script set it); only its listing is missing.
      this.setHealthy(false, describe(error));
    }
  }

  private banIndexKey(): string {
    return `${this.options.keyPrefix}bans`;
  }

  isHealthy(): boolean {
    return this.healthy && this.redis.status === 'ready';
  }

  async ping(): Promise<void> {
    this.assertReady();
    try {
      await this.redis.ping();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    this.redis.removeAllListeners('end');
    try {
      if (this.redis.status === 'ready') await this.redis.quit();
      else this.redis.disconnect();
    } catch {
      this.redis.disconnect();
    }
  }

  /** The key of one of a client's counters; the hash tag keeps a client's keys in one slot. */
  private key(client: string, part: string): string {
    return `${this.options.keyPrefix}{${client}}:${part}`;
  }

  private async run(keys: string[], args: Array<string | number>): Promise<unknown> {
    this.assertReady();
    try {
      let reply: unknown;
      try {
        reply = await this.redis.evalsha(this.sha, keys.length, ...keys, ...args);
      } catch (error) {
        // Redis says which error it is by the first word of the reply (RESP simple errors), and ioredis gives the
        // reply as the message with no code; test/rate-limit-redis.e2e-spec.ts flushes the scripts to make one.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        await this.loadScript();
        reply = await this.redis.evalsha(this.sha, keys.length, ...keys, ...args);
      }
      this.setHealthy(true, 'answering again');
      return reply;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async loadScript(): Promise<void> {
    const sha = await this.redis.script('LOAD', HIT_SCRIPT);
    if (sha !== this.sha) throw new Error(`Redis returned SHA ${String(sha)} for the rate-limit script`);
  }

  private assertReady(): void {
    if (this.redis.status !== 'ready') {
      throw new RateLimitStorageUnavailableError(`Redis is ${this.redis.status}: ${this.lastProblem}`);
    }
  }

  private unavailable(error: unknown): RateLimitStorageUnavailableError {
    this.setHealthy(false, describe(error));
    return new RateLimitStorageUnavailableError(`Redis call failed: ${describe(error)}`, { cause: error });
  }

  private setHealthy(healthy: boolean, detail: string): void {
    if (!healthy) this.lastProblem = detail;
    if (healthy === this.healthy) return;
    this.healthy = healthy;
    this.options.onHealthChange?.(healthy, detail);
    if (healthy) for (const wake of this.readyWaiters.splice(0)) wake();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

function parseReply(reply: unknown, windowCount: number): HitResult {
  if (!Array.isArray(reply) || reply.length !== 3 + 2 * windowCount) {
    throw new RateLimitStorageUnavailableError(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  }
  const numbers = reply.map(Number);
  const [outcome, now, banTtl] = numbers;
  const windows: WindowCount[] = [];
  for (let i = 0; i < windowCount; i++) {
    const count = numbers[3 + 2 * i];
    const ttl = numbers[4 + 2 * i];
    windows.push({ count, resetAt: ttl > 0 ? now + ttl : null });
  }
  const result: HitResult = {
    outcome: OUTCOMES[outcome] ?? 'limited',
    now,
    windows,
    banUntil: banTtl > 0 ? now + banTtl : null,
  };
  return outcome === BAN_STARTED ? { ...result, banStarted: true } : result;
}
