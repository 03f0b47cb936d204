/** Current time, injectable so use cases with time rules can be tested with a fixed clock. */
export type Clock = () => Date;
export const CLOCK = Symbol('Clock');
export const systemClock: Clock = () => new Date();
