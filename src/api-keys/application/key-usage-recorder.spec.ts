import { InMemoryKeyUsageRepository } from '../../../test/fakes/index.js';
import { KeyUsageRecorder } from './key-usage-recorder.js';

const MIDNIGHT = Date.parse('2026-11-23T00:00:00Z');
const SETTINGS = { flushIntervalMs: 0, retentionDays: 90 };

function recorderAt(start: number, repository = new InMemoryKeyUsageRepository()) {
  const clock = { now: start };
  const recorder = new KeyUsageRecorder(repository, SETTINGS, () => clock.now);
  return { clock, recorder, repository };
}

describe('KeyUsageRecorder', () => {
  it('keeps counts in memory until a flush, then writes them all in one batch', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT + 3_600_000);
    for (let i = 0; i < 5; i++) recorder.counted(1, null);
    recorder.refused(1, null);
    recorder.banned(1, null);
    recorder.counted(2, null);
    expect(repository.batches).toHaveLength(0);

    expect(await recorder.flush()).toBe(2);
    expect(repository.batches).toHaveLength(1);
    expect(await repository.daily(1, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 5, refused: 1, bans: 1 },
    ]);
    expect(await repository.daily(2, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 1, refused: 0, bans: 0 },
    ]);
  });

  it('writes nothing when nothing happened since the last flush, and adds later batches to the same day', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT);
    recorder.counted(1, null);
    await recorder.flush();
    expect(await recorder.flush()).toBe(0);
    expect(repository.batches).toHaveLength(1);
    recorder.counted(1, null);
    recorder.refused(1, null);
    await recorder.flush();
    expect(await repository.daily(1, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 2, refused: 1, bans: 0 },
    ]);
  });

  it('counts each request on its UTC day, across midnight, in one batch', async () => {
    const { clock, recorder, repository } = recorderAt(MIDNIGHT - 1);
    recorder.counted(7, null);
    recorder.counted(7, null);
    clock.now = MIDNIGHT;
    recorder.counted(7, null);
    clock.now = MIDNIGHT - 2; // a clock stepping back is counted on its own day too
    recorder.refused(7, null);
    await recorder.flush();
    expect(repository.batches).toHaveLength(1);
    expect(await repository.daily(7, '2026-11-22', '2026-11-23')).toEqual([
      { date: '2026-11-22', requests: 2, refused: 1, bans: 0 },
      { date: '2026-11-23', requests: 1, refused: 0, bans: 0 },
    ]);
  });

  it('keeps the counts of a failed write for the next flush, merged with newer ones', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT);
    recorder.counted(1, null);
    recorder.counted(1, null);
    repository.failNext = 1;
    await expect(recorder.flush()).rejects.toThrow('database unavailable');
    recorder.counted(1, null);
    recorder.banned(1, null);
    expect(await recorder.flush()).toBe(1);
    expect(await repository.daily(1, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 3, refused: 0, bans: 1 },
    ]);
  });

  it('counts made while a flush is writing go to the next flush, never twice and never lost', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT);
    let open = () => {};
    repository.gate = new Promise((resolve) => (open = resolve));
    recorder.counted(1, null);
    const first = recorder.flush();
    while (repository.batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    recorder.counted(1, null); // arrives while the first batch is being written
    const second = recorder.flush();
    open();
    await Promise.all([first, second]);
    expect(repository.batches.map((batch) => batch.map((d) => d.requests))).toEqual([[1], [1]]);
    expect((await repository.daily(1, '2026-11-23', '2026-11-23'))[0].requests).toBe(2);
  });

  it('two instances, each flushing its own counts, add up exactly', async () => {
    const repository = new InMemoryKeyUsageRepository();
    const a = recorderAt(MIDNIGHT, repository).recorder;
    const b = recorderAt(MIDNIGHT, repository).recorder;
    for (let i = 0; i < 30; i++) (i % 3 === 0 ? b : a).counted(4, null);
    a.refused(4, null);
    b.refused(4, null);
    b.banned(4, null);
    await Promise.all([a.flush(), b.flush(), a.flush()]);
    expect(await repository.daily(4, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 30, refused: 2, bans: 1 },
    ]);
  });

  it('writes what is pending when closed', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT);
    recorder.counted(3, null);
    await recorder.close();
    expect(repository.batches).toHaveLength(1);
  });

  it('closes without throwing when the last write fails', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT);
    recorder.counted(3, null);
    repository.failNext = 1;
    await expect(recorder.close()).resolves.toBeUndefined();
  });

  it('sweeps the days before the retention (today included in it)', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT + 1);
    const day = (date: string) => ({ keyId: 1, accountId: null, date, requests: 1, refused: 0, bans: 0 });
    await repository.add([day('2026-08-25'), day('2026-08-26'), day('2026-11-23')]);
    // 90 days kept: 2026-08-26 .. 2026-11-23.
    expect(await recorder.sweep()).toBe(1);
    expect((await repository.daily(1, '2026-01-01', '2026-12-31')).map((d) => d.date)).toEqual([
      '2026-08-26',
      '2026-11-23',
    ]);
  });
});

describe('KeyUsageRecorder: last use', () => {
  it('writes each key’s last use at the flush, and its previous secret’s apart', async () => {
    const { clock, recorder, repository } = recorderAt(MIDNIGHT + 1_000);
    recorder.counted(1, null);
    recorder.counted(2, null, true);
    clock.now += 5_000;
    recorder.refused(1, null);
    expect(repository.lastUses.size).toBe(0);
    await recorder.flush();
    expect(repository.lastUses.get(1)).toEqual({ at: new Date(MIDNIGHT + 6_000), previousAt: null });
    expect(repository.lastUses.get(2)).toEqual({
      at: new Date(MIDNIGHT + 1_000),
      previousAt: new Date(MIDNIGHT + 1_000),
    });
  });

  it('keeps the last uses of a failed flush for the next one', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT + 1_000);
    recorder.counted(3, null, true);
    await recorder.flush();
    recorder.counted(3, null);
    repository.failNext = 1;
    await expect(recorder.flush()).rejects.toThrow('database unavailable');
    await recorder.flush();
    expect(repository.lastUses.get(3)).toEqual({
      at: new Date(MIDNIGHT + 1_000),
      previousAt: new Date(MIDNIGHT + 1_000),
    });
  });

  it('counts a 304 in neither the key’s nor its account’s day, but as the key’s last use (its previous secret’s too)', async () => {
    const { clock, recorder, repository } = recorderAt(MIDNIGHT + 1_000);
    recorder.counted(1, 3);
    clock.now += 2_000;
    recorder.notModified(1, 3, true);
    recorder.notModified(2, 3);
    await recorder.flush();
    expect(await repository.daily(1, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 1, refused: 0, bans: 0 },
    ]);
    expect(await repository.daily(2, '2026-11-23', '2026-11-23')).toEqual([]); // no row at all
    expect(await repository.dailyOfAccount(3, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 1, refused: 0, bans: 0 },
    ]);
    expect(repository.lastUses.get(1)).toEqual({
      at: new Date(MIDNIGHT + 3_000),
      previousAt: new Date(MIDNIGHT + 3_000),
    });
    expect(repository.lastUses.get(2)).toEqual({ at: new Date(MIDNIGHT + 3_000), previousAt: null });
  });

  it('attributes usage to the account the key was in at each request (a key moved that day has a row per account)', async () => {
    const { recorder, repository } = recorderAt(MIDNIGHT + 1);
    recorder.counted(1, 3);
    recorder.counted(1, 3);
    recorder.refused(1, 3);
    recorder.counted(1, null); // taken out of the account
    recorder.banned(1, null);
    recorder.counted(2, 3);
    await recorder.flush();
    expect(
      [...repository.rows.values()].map(({ keyId, accountId, requests, refused, bans }) => ({
        keyId,
        accountId,
        requests,
        refused,
        bans,
      })),
    ).toEqual([
      { keyId: 1, accountId: 3, requests: 2, refused: 1, bans: 0 },
      { keyId: 1, accountId: null, requests: 1, refused: 0, bans: 1 },
      { keyId: 2, accountId: 3, requests: 1, refused: 0, bans: 0 },
    ]);
    expect(await repository.dailyOfAccount(3, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 3, refused: 1, bans: 0 },
    ]);
    expect(await repository.daily(1, '2026-11-23', '2026-11-23')).toEqual([
      { date: '2026-11-23', requests: 3, refused: 1, bans: 1 },
    ]);
  });
});
