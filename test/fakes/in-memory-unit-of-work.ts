import type { DomainEvent } from '../../src/shared/domain-events/domain-event.js';
import { DomainEventBus, RecordedEvents } from '../../src/shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../../src/shared/unit-of-work/unit-of-work.js';
import type { InMemoryTables } from './in-memory-tables.js';

/** A transaction of the in-memory unit of work: savepoints are snapshots of the tables. */
class InMemoryTransaction implements Transaction {
  readonly events = new RecordedEvents();

  constructor(private readonly tables: InMemoryTables) {}

  record(event: DomainEvent): void {
    this.events.record(event);
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const rollback = this.tables.snapshot();
    const mark = this.events.mark();
    try {
      return await work();
    } catch (error) {
      rollback();
      this.events.rollbackTo(mark);
      throw error;
    }
  }
}

/**
 * A faithful in-memory `UnitOfWork`: transactions run one at a time (the strictest
 * isolation, standing in for the row locks of the real one), and a transaction
 * whose work (or a subscriber of its events) throws leaves the tables as they
 * were, as does a failed savepoint for its own writes and events. Events go to
 * `events`' subscribers before the commit, as in the real one. Counts commits and
 * rollbacks, and keeps the events of committed transactions, for assertions.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  commits = 0;
  rollbacks = 0;
  readonly committedEvents: DomainEvent[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly tables: InMemoryTables,
    readonly events: DomainEventBus = new DomainEventBus(),
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const rollback = this.tables.snapshot();
    const tx = new InMemoryTransaction(this.tables);
    try {
      const result = await work(tx);
      await this.events.dispatch(tx.events, tx);
      this.commits++;
      this.committedEvents.push(...tx.events.all());
      return result;
    } catch (error) {
      rollback();
      this.rollbacks++;
      throw error;
    }
  }
}
