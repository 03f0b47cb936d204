import type { DomainEvent } from '../domain-events/domain-event.js';

/**
 * An open transaction, opaque to the application: repositories given it run their
 * statements in it (their adapters find their connection in it), and use cases
 * record in it what happened.
 */
export interface Transaction {
  /** Runs `work` so that, if it throws, only its own writes (and the events it recorded) are undone. */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
  /** Records an event: subscribers get it before this transaction commits, and run in it. */
  record(event: DomainEvent): void;
}

/**
 * Port: one use case, one transaction. Everything `work` writes through
 * repositories given `tx`, and everything subscribers of its events write, commits
 * together, or nothing does.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
