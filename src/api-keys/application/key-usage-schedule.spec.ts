import { SchedulerRegistry } from '@nestjs/schedule';
import { InMemoryKeyUsageRepository } from '../../../test/fakes/index.js';
import type { AppConfig } from '../../config/app.config.js';
import { KeyUsageRecorder } from './key-usage-recorder.js';
import { KeyUsageSchedule } from './key-usage-schedule.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

function scheduleWith(flushIntervalMs: number) {
  const repository = new InMemoryKeyUsageRepository();
  const keyUsage = { flushIntervalMs, retentionDays: 90 };
  const recorder = new KeyUsageRecorder(repository, keyUsage, () => NOW);
  const scheduler = new SchedulerRegistry();
  const schedule = new KeyUsageSchedule(recorder, scheduler, { keyUsage } as AppConfig);
  return { repository, recorder, scheduler, schedule };
}

describe('KeyUsageSchedule', () => {
  it('sweeps at start-up and registers the flush every USAGE_FLUSH_INTERVAL_MS', async () => {
    const { repository, scheduler, schedule } = scheduleWith(10_000);
    await repository.add([{ keyId: 1, accountId: null, date: '2026-01-01', requests: 1, refused: 0, bans: 0 }]);
    schedule.onApplicationBootstrap();
    expect(scheduler.getIntervals()).toEqual(['key-usage-flush']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await repository.daily(1, '2026-01-01', '2026-12-31')).toEqual([]);
    await schedule.onModuleDestroy();
  });

  it('registers no flush when the interval is 0 (flushes only at shutdown)', async () => {
    const { scheduler, schedule } = scheduleWith(0);
    schedule.onApplicationBootstrap();
    expect(scheduler.getIntervals()).toEqual([]);
    await schedule.onModuleDestroy();
  });

  it('stops the flush and writes what is pending at shutdown', async () => {
    const { repository, recorder, scheduler, schedule } = scheduleWith(10_000);
    schedule.onApplicationBootstrap();
    recorder.counted(7, null);
    await schedule.onModuleDestroy();
    expect(scheduler.getIntervals()).toEqual([]);
    expect(await repository.daily(7, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 1, refused: 0, bans: 0 },
    ]);
  });
});
