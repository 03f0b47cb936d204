import { Inject, Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { CLOCK, type Clock, systemClock } from '../../shared/clock.js';
import { IDEMPOTENCY_REPOSITORY, type IdempotencyRepository } from '../domain/idempotency.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes Idempotency-Key records past their 24-hour retention, at start-up and then hourly. */
@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap {
  private readonly logger = new Logger('Idempotency');

  constructor(
    @Inject(IDEMPOTENCY_REPOSITORY) private readonly records: IdempotencyRepository,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep(); // cannot reject: a failed sweep is logged, and tried again in an hour
  }

  @Interval('idempotency-sweep', SWEEP_EVERY_MS)
  async sweep(): Promise<number> {
    try {
      const removed = await this.records.deleteExpired(this.clock());
      if (removed > 0) this.logger.log(`Removed ${removed} expired Idempotency-Key record(s)`);
      return removed;
    } catch (error) {
      this.logger.warn(`Idempotency-Key clean-up failed; will retry: ${String(error)}`);
      return 0;
    }
  }
}
