import { OverloadedError } from '@petstore/errors';
import { TransactionTurns } from './transaction-turns.js';

/** A task that runs until `finish()` is called, recording its start. */
function controlled(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => (started.push(name), done.then(() => name)), finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TransactionTurns', () => {
  it('runs at most `atOnce` tasks at once, the others in arrival order', async () => {
    const turns = new TransactionTurns(2, 10);
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => controlled(started, name));
    const results = tasks.map((t) => turns.run(t.task));
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(turns.load()).toEqual({ running: 2, waiting: 2 });
    tasks[1].finish();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    tasks[0].finish();
    tasks[2].finish();
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    tasks[3].finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(turns.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the turn when a task fails, and passes the failure on', async () => {
    const turns = new TransactionTurns(1, 10);
    await expect(turns.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(turns.run(() => Promise.resolve(3))).resolves.toBe(3);
    expect(turns.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('sheds with OverloadedError beyond maxWaiting queued tasks', async () => {
    const turns = new TransactionTurns(1, 1);
    const started: string[] = [];
    const running = controlled(started, 'r');
    const queued = controlled(started, 'q');
    const first = turns.run(running.task);
    const second = turns.run(queued.task);
    await expect(turns.run(() => Promise.resolve('x'))).rejects.toBeInstanceOf(OverloadedError);
    running.finish();
    await tick();
    queued.finish();
    expect(await Promise.all([first, second])).toEqual(['r', 'q']);
  });

  it('refuses a limit below 1', () => {
    expect(() => new TransactionTurns(0, 1)).toThrow(RangeError);
  });

  it('refuses a task that waited longer than maxWaitMs for its turn, and leaves the queue as it was', async () => {
    const turns = new TransactionTurns(1, 10, 20);
    const started: string[] = [];
    const holder = controlled(started, 'holder');
    const held = turns.run(holder.task);
    // A unit of work started inside the one holding the only turn: it would wait for ever.
    await expect(turns.run(() => Promise.resolve('nested'))).rejects.toBeInstanceOf(OverloadedError);
    expect(turns.load()).toEqual({ running: 1, waiting: 0 });
    holder.finish();
    await held;
    await expect(turns.run(() => Promise.resolve('after'))).resolves.toBe('after');
    expect(turns.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a waiting task its turn before its deadline', async () => {
    const turns = new TransactionTurns(1, 10, 1_000);
    const started: string[] = [];
    const holder = controlled(started, 'holder');
    const held = turns.run(holder.task);
    const next = turns.run(() => Promise.resolve('next'));
    await tick();
    holder.finish();
    await held;
    await expect(next).resolves.toBe('next');
  });
});
