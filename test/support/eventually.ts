import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Asks `check` every 25 ms until it answers true and returns how long that took;
 * throws when `timeoutMs` passes first.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(25);
  }
  return Date.now() - started;
}
