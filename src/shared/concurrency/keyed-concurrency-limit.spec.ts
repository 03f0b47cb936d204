import { KeyedConcurrencyLimit, KeyQueueFullError } from './keyed-concurrency-limit.js';

/** A task that runs until `finish()` is called, recording its start. */
function controlled(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => (started.push(name), done.then(() => name)), finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedConcurrencyLimit', () => {
  it('runs at most `limit` tasks of one key at once, the others in arrival order', async () => {
    const limit = new KeyedConcurrencyLimit<number>(2, 10);
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => controlled(started, name));
    const results = tasks.map((t) => limit.run(7, t.task));
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(limit.load(7)).toEqual({ running: 2, waiting: 2 });
    tasks[1].finish();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    tasks[0].finish();
    tasks[2].finish();
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    tasks[3].finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(limit.load(7)).toEqual({ running: 0, waiting: 0 });
  });

  it('does not hold one key back for another', async () => {
    const limit = new KeyedConcurrencyLimit<number>(1, 10);
    const started: string[] = [];
    const first = controlled(started, 'one');
    const other = controlled(started, 'other');
    void limit.run(1, first.task);
    void limit.run(2, other.task);
    await tick();
    expect(started).toEqual(['one', 'other']);
    first.finish();
    other.finish();
  });

  it('frees the slot when a task fails, and passes the failure on', async () => {
    const limit = new KeyedConcurrencyLimit<string>(1, 10);
    await expect(limit.run('k', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(limit.run('k', () => Promise.resolve(3))).resolves.toBe(3);
    expect(limit.load('k')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once beyond maxWaiting queued tasks of a key', async () => {
    const limit = new KeyedConcurrencyLimit<number>(1, 1);
    const started: string[] = [];
    const running = controlled(started, 'r');
    const queued = controlled(started, 'q');
    const first = limit.run(1, running.task);
    const second = limit.run(1, queued.task);
    await expect(limit.run(1, () => Promise.resolve('x'))).rejects.toBeInstanceOf(KeyQueueFullError);
    running.finish();
    await tick();
    queued.finish();
    expect(await Promise.all([first, second])).toEqual(['r', 'q']);
  });

  it('refuses a limit below 1', () => {
    expect(() => new KeyedConcurrencyLimit(0, 1)).toThrow(RangeError);
  });
});
