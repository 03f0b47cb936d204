import type { DailyUsage, KeyLastUse, UsageDelta } from '../../src/api-keys/domain/key-usage.js';
import type { KeyUsageRepository } from '../../src/api-keys/domain/key-usage.repository.js';

/**
 * Daily usage rows in a map, added to as the SQL upsert does. Knows the key ids
 * that exist (deltas of others are dropped, as the adapter does); `failNext` makes
 * the next `add` throw; `batches` records every `add` call; `gate` holds writes open.
 */
export class InMemoryKeyUsageRepository implements KeyUsageRepository {
  readonly rows = new Map<string, DailyUsage & { keyId: number; accountId: number | null }>();
  readonly batches: UsageDelta[][] = [];
  failNext = 0;
  /** While set, `add` records its batch and then waits for it before changing any row. */
  gate: Promise<void> | null = null;

  constructor(private readonly keyIds: ReadonlySet<number> | null = null) {}

  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('database unavailable');
    }
    this.batches.push([...deltas]);
    if (this.gate) await this.gate;
    for (const d of deltas) {
      if (this.keyIds && !this.keyIds.has(d.keyId)) continue;
      const id = `${d.keyId}/${d.date}/${d.accountId ?? ''}`;
      const row = this.rows.get(id) ?? {
        keyId: d.keyId,
        accountId: d.accountId,
        date: d.date,
        requests: 0,
        refused: 0,
        bans: 0,
      };
      this.rows.set(id, {
        ...row,
        requests: row.requests + d.requests,
        refused: row.refused + d.refused,
        bans: row.bans + d.bans,
      });
    }
  }

  /** Each key's last uses, as the adapter keeps them on api_keys (moved forward only). */
  readonly lastUses = new Map<number, { at: Date; previousAt: Date | null }>();

  async markUsed(uses: readonly KeyLastUse[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('database unavailable');
    }
    for (const { keyId, at, previousAt } of uses) {
      if (this.keyIds && !this.keyIds.has(keyId)) continue;
      const known = this.lastUses.get(keyId);
      const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));
      this.lastUses.set(keyId, {
        at: later(known?.at ?? null, at) ?? at,
        previousAt: later(known?.previousAt ?? null, previousAt),
      });
    }
  }

  async daily(keyId: number, from: string, to: string): Promise<DailyUsage[]> {
    return this.summed((r) => r.keyId === keyId, from, to);
  }

  async dailyOfAccount(accountId: number, from: string, to: string): Promise<DailyUsage[]> {
    return this.summed((r) => r.accountId === accountId, from, to);
  }

  /** The matching rows of the range, summed per day, in date order (as the adapter's GROUP BY). */
  private summed(
    match: (row: { keyId: number; accountId: number | null }) => boolean,
    from: string,
    to: string,
  ): DailyUsage[] {
    const days = new Map<string, DailyUsage>();
    for (const r of this.rows.values()) {
      if (!match(r) || r.date < from || r.date > to) continue;
      const day = days.get(r.date) ?? { date: r.date, requests: 0, refused: 0, bans: 0 };
      days.set(r.date, {
        date: r.date,
        requests: day.requests + r.requests,
        refused: day.refused + r.refused,
        bans: day.bans + r.bans,
      });
    }
    return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
  }

  async deleteBefore(date: string): Promise<number> {
    let removed = 0;
    for (const [id, row] of this.rows) {
      if (row.date < date) {
        this.rows.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}
