import { Session } from 'node:inspector';

/** Long enough for the first requests (a readiness probe) to go first; short beside any idle period. */
export const COMPACT_DELAY_MS = 250;

/**
 * One full garbage collection, soon after the service has started. Module
 * evaluation, Nest's scan, migrations and the first connections leave the heap at
 * about twice its live size (~70 MB committed for ~30 MB live, the young generation
 * grown by start-up's garbage); V8's memory reducer gives it back only after the
 * process has been idle for a while, and a busy process may never be. Collected
 * once, the process starts serving at its live size (about 100 MB of RSS instead of
 * 125). A failure is ignored: the heap is then only larger.
 */
export function compactHeapSoon(delayMs = COMPACT_DELAY_MS): void {
  setTimeout(() => void collectGarbage().catch(() => undefined), delayMs).unref();
}

/**
 * A full collection through the in-process inspector, V8's own API for it (no
 * port is opened, nothing stays connected). The session is left after the
 * answer's callback has returned: disconnecting inside it never returns.
 */
export function collectGarbage(): Promise<void> {
  return new Promise((resolve, reject) => {
    const session = new Session();
    session.connect();
    session.post('HeapProfiler.collectGarbage', (error) => {
      setImmediate(() => {
        session.disconnect();
        if (error) reject(error);
        else resolve();
      });
    });
  });
}
