import { Logger } from '@nestjs/common';
import type { KeyUsageMeter } from '../../rate-limits/key-usage-meter.js';
import { DAY_MS } from '../../shared/clock.js';
import { addDays, type KeyLastUse, startOfDay, type UsageDelta, utcDate } from '../domain/key-usage.js';
import type { KeyUsageRepository } from '../domain/key-usage.repository.js';

export interface KeyUsageSettings {
  /** Days kept, today included; older days are swept. */
  readonly retentionDays: number;
}

interface Counts {
  /** The account the key was in for these requests (usage is attributed to it). */
  readonly accountId: number | null;
  requests: number;
  refused: number;
  bans: number;
  /** The key's counts of the same day in another account (it moved that day): rare, so a chain. */
  other: Counts | null;
}

/** How long the last flush at shutdown may take before its counts are given up. */
const SHUTDOWN_FLUSH_BUDGET_MS = 5_000;

/**
 * Counts each API key's requests, refusals and bans per UTC day in memory (an
 * increment in a map per request) and adds them to PostgreSQL in batches: one
 * upsert for all keys and days pending per `flush()`. Each instance adds only what
 * it counted itself, so with several instances the stored totals are the exact
 * sums. A failed write keeps its counts for the next flush. `KeyUsageSchedule`
 * flushes it periodically and at shutdown, and sweeps the days beyond the retention.
 */
export class KeyUsageRecorder implements KeyUsageMeter {
  private readonly logger = new Logger('KeyUsage');
  /** Pending counts by day, then by key id (then by account, chained). */
  private pending = new Map<string, Map<number, Counts>>();
  /** The map of the day being counted, and when that day starts and ends (ms): no date formatting per request. */
  private current = new Map<number, Counts>();
  private currentStart = Number.POSITIVE_INFINITY;
  private currentEnd = Number.NEGATIVE_INFINITY;
  private writing: Promise<unknown> = Promise.resolve();
  /** Each key's last use since the last flush (ms), and its previous secret's (0: none): written with the counts. */
  private lastUses = new Map<number, { at: number; previousAt: number }>();

  constructor(
    private readonly repository: KeyUsageRepository,
    private readonly settings: KeyUsageSettings,
    private readonly now: () => number = Date.now,
  ) {}

  counted(keyId: number, accountId: number | null, previousSecret = false): void {
    this.countsOf(keyId, accountId).requests += 1;
    this.used(keyId, previousSecret);
  }

  refused(keyId: number, accountId: number | null, previousSecret = false): void {
    this.countsOf(keyId, accountId).refused += 1;
    this.used(keyId, previousSecret);
  }

  banned(keyId: number, accountId: number | null): void {
    this.countsOf(keyId, accountId).bans += 1;
  }

  /** Only the key's last use: a 304 is in neither the key's nor its account's count of the day. */
  notModified(keyId: number, _accountId: number | null, previousSecret = false): void {
    this.used(keyId, previousSecret);
  }

  /**
   * Writes every pending count (one statement), after any write already under
   * way. Resolves to the number of key-days written; a failure keeps the counts
   * for the next flush and rejects.
   */
  flush(): Promise<number> {
    const next = this.writing.then(() => this.write());
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** `flush()` for a timer: a failure is logged, and its counts wait for the next flush. */
  async flushPending(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      this.logger.warn(`Key usage not written, retrying at the next flush: ${describe(error)}`);
    }
  }

  /** Deletes the days beyond the retention; resolves to the number of rows deleted (0 when it failed: logged). */
  async sweep(): Promise<number> {
    try {
      const keepFrom = addDays(utcDate(this.now()), -(this.settings.retentionDays - 1));
      const removed = await this.repository.deleteBefore(keepFrom);
      if (removed > 0) this.logger.log(`Removed ${removed} day(s) of key usage before ${keepFrom}`);
      return removed;
    } catch (error) {
      this.logger.warn(`Key usage clean-up failed; will retry: ${describe(error)}`);
      return 0;
    }
  }

  /** Writes what is pending, at shutdown (bounded: a database that is gone does not hold up shutdown). */
  async close(): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const budget = new Promise<'late'>((resolve) => {
      timeout = setTimeout(() => resolve('late'), SHUTDOWN_FLUSH_BUDGET_MS);
    });
    try {
      const outcome = await Promise.race([this.flush(), budget]);
      if (outcome === 'late') this.logger.warn('Key usage not written within 5 s at shutdown: its counts are lost');
    } catch (error) {
      this.logger.warn(`Key usage not written at shutdown, its counts are lost: ${describe(error)}`);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** A field update per request: the database hears of it at the next flush, not per request. */
  private used(keyId: number, previousSecret: boolean): void {
    const now = this.now();
    const last = this.lastUses.get(keyId);
    if (last) {
      last.at = now;
      if (previousSecret) last.previousAt = now;
    } else {
      this.lastUses.set(keyId, { at: now, previousAt: previousSecret ? now : 0 });
    }
  }

  private countsOf(keyId: number, accountId: number | null): Counts {
    const now = this.now();
    if (now >= this.currentEnd || now < this.currentStart) this.switchDay(now);
    return countsIn(this.current, keyId, accountId);
  }

  private switchDay(now: number): void {
    const date = utcDate(now);
    this.currentStart = startOfDay(date);
    this.currentEnd = this.currentStart + DAY_MS;
    let day = this.pending.get(date);
    if (!day) {
      day = new Map();
      this.pending.set(date, day);
    }
    this.current = day;
  }

  private async write(): Promise<number> {
    const taken = this.pending;
    this.pending = new Map();
    this.currentEnd = Number.NEGATIVE_INFINITY; // the next count opens its day in the new map
    const deltas: UsageDelta[] = [];
    for (const [date, keys] of taken) {
      for (const [keyId, first] of keys) {
        for (let c: Counts | null = first; c; c = c.other) {
          const { accountId, requests, refused, bans } = c;
          if (requests + refused + bans > 0) deltas.push({ keyId, accountId, date, requests, refused, bans });
        }
      }
    }
    if (deltas.length > 0) {
      try {
        await this.repository.add(deltas);
      } catch (error) {
        for (const delta of deltas) this.putBack(delta);
        throw error;
      }
    }
    // After the counts: the flush that shows a use in the daily usage also shows it as the last one.
    await this.writeLastUses();
    return deltas.length;
  }

  /** The last uses since the previous flush; a failed write keeps them (the later of two) for the next. */
  private async writeLastUses(): Promise<void> {
    const taken = this.lastUses;
    if (taken.size === 0) return;
    this.lastUses = new Map();
    const uses: KeyLastUse[] = [...taken].map(([keyId, { at, previousAt }]) => ({
      keyId,
      at: new Date(at),
      previousAt: previousAt > 0 ? new Date(previousAt) : null,
    }));
    try {
      await this.repository.markUsed(uses);
    } catch (error) {
      for (const [keyId, use] of taken) {
        const later = this.lastUses.get(keyId);
        if (later) later.previousAt = Math.max(later.previousAt, use.previousAt);
        else this.lastUses.set(keyId, use);
      }
      throw error;
    }
  }

  private putBack({ keyId, accountId, date, requests, refused, bans }: UsageDelta): void {
    let day = this.pending.get(date);
    if (!day) {
      day = new Map();
      this.pending.set(date, day);
    }
    const counts = countsIn(day, keyId, accountId);
    counts.requests += requests;
    counts.refused += refused;
    counts.bans += bans;
  }
}

/** A key's counts in one account (null: none) among a day's, made when missing. */
function countsIn(day: Map<number, Counts>, keyId: number, accountId: number | null): Counts {
  let counts = day.get(keyId);
  if (!counts) {
    counts = { accountId, requests: 0, refused: 0, bans: 0, other: null };
    day.set(keyId, counts);
    return counts;
  }
  while (counts.accountId !== accountId) {
    counts.other ??= { accountId, requests: 0, refused: 0, bans: 0, other: null };
    counts = counts.other;
  }
  return counts;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
