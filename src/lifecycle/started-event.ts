/**
 * Emitted on `process` once the service listens: the launcher (`code-cache.ts`)
 * then writes the code cache of the bundle, if it has none it could use.
 */
export const STARTED_EVENT = 'petstore:started';

/** `process` as the event emitter it is (its typings list only Node's own events). */
export const processEvents: NodeJS.EventEmitter = process;

export function announceStarted(): void {
  processEvents.emit(STARTED_EVENT);
}
