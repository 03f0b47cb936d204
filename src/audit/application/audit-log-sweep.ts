import { Inject, Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Interval } from '@nestjs/schedule';
import { appConfig } from '../../config/app.config.js';
import { Clock, DAY_MS, systemClock } from '../../shared/clock.js';
import { AuditLogRepository } from '../domain/audit-log.repository.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Entries deleted per statement: short transactions, however far behind the sweep is. */
export const AUDIT_SWEEP_BATCH = 1_000;

/** Deletes audit entries older than `AUDIT_RETENTION_DAYS`, in batches, at start-up and then hourly. */
@Injectable()
export class AuditLogSweep implements OnApplicationBootstrap {
  private readonly logger = new Logger('AuditLog');

  constructor(
    private readonly log: AuditLogRepository,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep(); // cannot reject: a failed sweep is logged, and tried again in an hour
  }

  /** Resolves to the number of entries deleted (those of the batches that succeeded). */
  @Interval('audit-log-sweep', SWEEP_EVERY_MS)
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.audit.retentionDays * DAY_MS);
    let removed = 0;
    try {
      for (;;) {
        const deleted = await this.log.deleteBatchBefore(before, AUDIT_SWEEP_BATCH);
        removed += deleted;
        if (deleted < AUDIT_SWEEP_BATCH) break;
      }
    } catch (error) {
      this.logger.warn(
        `Audit log clean-up failed; will retry: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (removed > 0)
      this.logger.log(`Removed ${removed} audit entr${removed === 1 ? 'y' : 'ies'} before ${before.toISOString()}`);
    return removed;
  }
}
