import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { CLOCK, type Clock, systemClock } from '../../shared/clock.js';
import { IDEMPOTENCY_REPOSITORY, type IdempotencyRepository } from '../domain/idempotency.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes Idempotency-Key records past their 24-hour retention, at start-up and then hourly. */
@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(IDEMPOTENCY_REPOSITORY) private readonly records: IdempotencyRepository,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

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
