import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Interval, SchedulerRegistry } from '@nestjs/schedule';
import { type AppConfig, appConfig } from '../../config/app.config.js';
import { KeyUsageRecorder } from './key-usage-recorder.js';

/** How often days beyond the retention are deleted (and once at start-up). */
const SWEEP_INTERVAL_MS = 3_600_000;
const FLUSH = 'key-usage-flush';

/**
 * When the recorder writes and sweeps: a sweep at start-up and hourly, a flush every
 * `USAGE_FLUSH_INTERVAL_MS` (configuration, so registered with the `SchedulerRegistry`
 * rather than by a decorator; 0: none), and a last flush at shutdown, after its
 * timer is stopped.
 */
@Injectable()
export class KeyUsageSchedule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly recorder: KeyUsageRecorder,
    private readonly scheduler: SchedulerRegistry,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Neither rejects: the recorder logs a failed sweep or flush, and tries again at the next one.
    void this.recorder.sweep();
    const { flushIntervalMs } = this.config.keyUsage;
    if (flushIntervalMs > 0) {
      this.scheduler.addInterval(
        FLUSH,
        setInterval(() => void this.recorder.flushPending(), flushIntervalMs),
      );
    }
  }

  @Interval('key-usage-sweep', SWEEP_INTERVAL_MS)
  async sweep(): Promise<void> {
    await this.recorder.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.scheduler.doesExist('interval', FLUSH)) this.scheduler.deleteInterval(FLUSH);
    await this.recorder.close();
  }
}
