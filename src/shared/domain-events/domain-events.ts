import type { Transaction } from '../unit-of-work/unit-of-work.js';
import type { DomainEvent } from './domain-event.js';

/** Handles one event inside the transaction that recorded it; what it writes there commits with the change. */
export type DomainEventHandler<E extends DomainEvent> = (event: E, tx: Transaction) => Promise<void>;

/** Handles every event a transaction dispatched, at once, after their per-type handlers (e.g. one multi-row insert). */
export type DomainEventBatchHandler = (events: readonly DomainEvent[], tx: Transaction) => Promise<void>;

/**
 * Port: how a module subscribes to another module's events without importing its
 * internals (only the event's type, from that module's public entry).
 */
export abstract class DomainEventSubscriptions {
  abstract subscribe<E extends DomainEvent>(type: E['type'], handler: DomainEventHandler<E>): void;
  /**
   * Every event of a transaction, of any type, in one call before the commit (still
   * inside the transaction). `{ published: false }`: only the events that are not
   * `published` (the outbox, whose rows a publishing statement already wrote).
   */
  abstract subscribeAll(handler: DomainEventBatchHandler, options?: BatchSubscriptionOptions): void;
  /**
   * Whether a subscriber takes events of these types when their statement published
   * them: a per-type handler, or a batch handler that takes published events. When
   * none does, a use case whose change is one publishing statement runs it without a
   * transaction around it (an order placement: docs/orders.md).
   */
  abstract wantsPublished(types: readonly string[]): boolean;
}

export interface BatchSubscriptionOptions {
  /** false: the handler gets only the events no statement published (default true: all). */
  readonly published?: boolean;
}

/**
 * The subscriptions, and their dispatch for a unit of work: each recorded event
 * goes to its type's handlers in subscription order; events recorded by handlers
 * are dispatched in turn, until none is left. A handler that throws fails the
 * transaction.
 */
export class DomainEventBus implements DomainEventSubscriptions {
  private readonly handlers = new Map<string, Array<DomainEventHandler<DomainEvent>>>();
  private readonly batchHandlers: Array<{ handle: DomainEventBatchHandler; published: boolean }> = [];

  subscribe<E extends DomainEvent>(type: E['type'], handler: DomainEventHandler<E>): void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler as DomainEventHandler<DomainEvent>);
    this.handlers.set(type, list);
  }

  subscribeAll(handler: DomainEventBatchHandler, { published = true }: BatchSubscriptionOptions = {}): void {
    this.batchHandlers.push({ handle: handler, published });
  }

  wantsPublished(types: readonly string[]): boolean {
    return this.batchHandlers.some((h) => h.published) || types.some((type) => this.handlers.has(type));
  }

  /** Whether anyone listens at all: a unit of work without subscribers skips dispatch. */
  get empty(): boolean {
    return this.handlers.size === 0 && this.batchHandlers.length === 0;
  }

  /** Per-type handlers first, event by event; then the batch handlers once with all of them (again for any they record). */
  async dispatch(pending: RecordedEvents, tx: Transaction): Promise<void> {
    for (;;) {
      const batch: DomainEvent[] = [];
      for (let event = pending.next(); event; event = pending.next()) {
        batch.push(event);
        for (const handler of this.handlers.get(event.type) ?? []) await handler(event, tx);
      }
      if (batch.length === 0 || this.batchHandlers.length === 0) return;
      for (const { handle, published } of this.batchHandlers) {
        const events = published ? batch : batch.filter((event) => !event.published);
        if (events.length > 0) await handle(events, tx);
      }
    }
  }
}

/**
 * The events one transaction recorded, in order, with savepoint marks: a
 * savepoint that rolls back drops what was recorded inside it.
 */
export class RecordedEvents {
  private readonly events: DomainEvent[] = [];
  private dispatched = 0;

  record(event: DomainEvent): void {
    this.events.push(event);
  }

  mark(): number {
    return this.events.length;
  }

  rollbackTo(mark: number): void {
    this.events.length = Math.max(mark, this.dispatched);
  }

  /** The next event not yet dispatched. */
  next(): DomainEvent | undefined {
    return this.dispatched < this.events.length ? this.events[this.dispatched++] : undefined;
  }

  /** Every event recorded and not rolled back (for tests and logs). */
  all(): readonly DomainEvent[] {
    return this.events;
  }
}
