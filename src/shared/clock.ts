/**
 * Port: the current time, so that use cases with time rules can be tested with a
 * clock of their own. The one port the application does not bind: its consumers
 * take it as an optional constructor parameter that defaults to the system's
 * (`@Optional() private readonly clock: Clock = systemClock`); a test binds one
 * (`{ provide: Clock, useValue: … }`) or passes one to the constructor.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** The system's time. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

export const systemClock: Clock = new SystemClock();

/** A UTC day in milliseconds (no leap seconds in JavaScript's time). */
export const DAY_MS = 86_400_000;
