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

  /**
   * `maxWaitMs`: how long a task may wait for its turn before it is refused with 503
   * `OVERLOADED` (the pool's own wait bound): a burst longer than the turns can serve
   * in that time is shed rather than left to queue.
   */
  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
    private readonly maxWaitMs = Number.POSITIVE_INFINITY,
  ) {
    if (!(atOnce >= 1) || !(maxWaiting >= 0) || !(maxWaitMs > 0)) {
      throw new RangeError('atOnce must be ≥ 1, maxWaiting ≥ 0 and maxWaitMs > 0');
    }
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.atOnce) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new OverloadedError(`${this.waiting.length} units of work already wait for a transaction`);
      }
      await this.turn();
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

  /** Resolves when a finishing task hands this one its turn; rejects after `maxWaitMs` without one. */
  private turn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = Number.isFinite(this.maxWaitMs)
        ? setTimeout(() => {
            const index = this.waiting.indexOf(handOver);
            if (index >= 0) this.waiting.splice(index, 1);
            reject(new OverloadedError(`no transaction turn became free within ${this.maxWaitMs} ms`));
          }, this.maxWaitMs)
        : undefined;
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(handOver);
    });
  }
}
