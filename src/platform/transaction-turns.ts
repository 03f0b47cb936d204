import { OverloadedError } from '@petstore/errors';

/**
 * At most `atOnce` units of work of this process in a transaction at once; the
 * next wait here, in arrival order, without a connection (at most `maxWaiting`:
 * one more is shed with 503 `OVERLOADED`). Store use cases on one hot pet all
 * queue on its inventory line's row lock, and PostgreSQL wakes every transaction
 * waiting for a row lock at each commit, to find all but one waiting again: with
 * the whole pool queued on one line, that herd cost PostgreSQL more than the
 * orders. A few at once keep the next transaction waiting at the lock when the
 * current one commits, and leave the rest of the pool to reads.
 */
export class TransactionTurns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
  ) {
    if (!(atOnce >= 1) || !(maxWaiting >= 0)) throw new RangeError('atOnce must be ≥ 1 and maxWaiting ≥ 0');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.atOnce) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new OverloadedError(`${this.waiting.length} units of work already wait for a transaction`);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // Hands the turn to the next waiting task (it stays counted as running), or frees it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Units of work in a transaction and waiting for one (for tests). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
