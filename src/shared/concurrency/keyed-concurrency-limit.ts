/** Thrown by `KeyedConcurrencyLimit.run` when a key's queue is full: the caller sheds the work. */
export class KeyQueueFullError extends Error {
  constructor(readonly key: unknown) {
    super(`too much work queued for ${String(key)}`);
    this.name = 'KeyQueueFullError';
  }
}

interface KeyState {
  running: number;
  readonly waiting: Array<() => void>;
}

/**
 * Runs at most `limit` tasks per key at once; the others wait their turn in
 * arrival order (at most `maxWaiting` per key, beyond which `run` fails at once
 * with `KeyQueueFullError`). Keys with nothing running are forgotten.
 */
export class KeyedConcurrencyLimit<K> {
  private readonly keys = new Map<K, KeyState>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {
    if (!(limit >= 1) || !(maxWaiting >= 0)) throw new RangeError('limit must be ≥ 1 and maxWaiting ≥ 0');
  }

  async run<T>(key: K, task: () => Promise<T>): Promise<T> {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = { running: 0, waiting: [] }));
    if (state.running >= this.limit) {
      if (state.waiting.length >= this.maxWaiting) throw new KeyQueueFullError(key);
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    } else {
      state.running++;
    }
    try {
      return await task();
    } finally {
      this.release(key, state);
    }
  }

  /** Tasks running and waiting for `key` (for tests and metrics). */
  load(key: K): { running: number; waiting: number } {
    const state = this.keys.get(key);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  /** Hands the slot to the next waiting task (it stays counted as running), or frees it. */
  private release(key: K, state: KeyState): void {
    const next = state.waiting.shift();
    if (next) return next();
    if (--state.running === 0) this.keys.delete(key);
  }
}
