import { type StatsListener, unwatchFile, watchFile } from 'node:fs';
import { Logger } from '@nestjs/common';
import type { PlanLimits, PlanName, PlanTable } from './plan.js';

import { describePlanTable, loadPlanTable, type PlanSource } from './plans-file.js';

/** Told of a reload that changed the table: the table before and the one now in force. */
export type PlanTableListener = (previous: PlanTable, next: PlanTable, reason: string) => void;

/** When the table in force was read, and how the last attempt to re-read it went (none yet: null). */
export interface PlanTableLoads {
  readonly loadedAt: Date;
  readonly lastReload: { readonly at: Date; readonly succeeded: boolean } | null;
}

/**
 * The effective plan table, re-read without a restart (on SIGHUP through
 * `reload()`, and when the file changes). Counters live in the storage, keyed by
 * client, so they survive a reload; a reload that fails keeps the current table.
 */
export class PlanTableService {
  private readonly logger = new Logger('RateLimit');
  private table: PlanTable;
  private listener: StatsListener | null = null;
  private readonly changeListeners: PlanTableListener[] = [];
  private loadedAt: Date;
  private lastReload: PlanTableLoads['lastReload'] = null;

  /** Loads the table; throws `PlanConfigError` naming the bad entry (start-up fails). */
  constructor(
    private readonly source: PlanSource,
    private readonly load: (source: PlanSource) => PlanTable = loadPlanTable,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.table = load(source);
    this.loadedAt = now();
  }

  limitsOf(plan: PlanName): PlanLimits | null {
    return this.table[plan];
  }

  /** The table in force. */
  current(): PlanTable {
    return this.table;
  }

  /** When this instance read the table in force, and its last reload (an administrator's "did my edit apply?"). */
  loads(): PlanTableLoads {
    return { loadedAt: this.loadedAt, lastReload: this.lastReload };
  }

  /** Calls `listener` after every reload that changed the table (not for an unchanged or failed one). */
  onChange(listener: PlanTableListener): void {
    this.changeListeners.push(listener);
  }

  /** Re-reads the file; on failure logs the reason and keeps the table in force. */
  reload(reason: string): boolean {
    try {
      const next = this.load(this.source);
      const previous = this.table;
      const changed = describePlanTable(next) !== describePlanTable(previous);
      this.table = next;
      this.loadedAt = this.now();
      this.lastReload = { at: this.loadedAt, succeeded: true };
      this.logger.log(`Plan table reloaded (${reason})${changed ? '' : ', unchanged'}: ${describePlanTable(next)}`);
      if (changed) for (const listener of this.changeListeners) listener(previous, next, reason);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.lastReload = { at: this.now(), succeeded: false };
      this.logger.error(`Plan table not reloaded (${reason}), keeping the current one: ${message}`);
      return false;
    }
  }

  /** Polls the file (robust to editors that replace it and to symlink swaps). */
  watch(intervalMs: number): void {
    if (this.listener) return;
    this.listener = (current, previous) => {
      if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size || current.ino !== previous.ino) {
        this.reload(`${this.source.file} changed`);
      }
    };
    watchFile(this.source.file, { interval: intervalMs, persistent: false }, this.listener);
  }

  onModuleDestroy(): void {
    this.close();
  }

  close(): void {
    if (this.listener) unwatchFile(this.source.file, this.listener);
    this.listener = null;
  }
}
