import { Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock, systemClock } from '../../shared/clock.js';
import { IdempotencyRepository } from '../domain/idempotency.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes Idempotency-Key records past their 24-hour retention, at start-up and then hourly. */
@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly records: IdempotencyRepository,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep(); // cannot reject: a failed sweep is logged, and tried again in an hour
  }

  @Interval('idempotency-sweep', SWEEP_EVERY_MS)
  async sweep(): Promise<number> {
    try {
      const removed = await this.records.deleteExpired(this.clock.now());
      if (removed > 0) this.logger.log(`Removed ${removed} expired Idempotency-Key record(s)`);
      return removed;
    } catch (error) {
      this.logger.warn(`Idempotency-Key clean-up failed; will retry: ${String(error)}`);
      return 0;
    }
  }
}
