/**
 * Something that happened in the domain, recorded by a use case inside its unit
 * of work and handed to subscribers before the transaction commits. Each module
 * defines its own events (their `type` names are unique across modules).
 */
export interface DomainEvent {
  readonly type: string;
  /** When the use case ran (its clock), not when a subscriber handles it. */
  readonly occurredAt: Date;
  /** The API key on whose behalf the change was made; null for the service's own work. */
  readonly actorKeyId: number | null;
  /**
   * Set when the statement that made the change also wrote the event's public form
   * to the outbox (an order placement does, so that its lock is held for the COMMIT
   * alone: docs/orders.md): the outbox subscriber skips it; every other subscriber
   * gets it as usual. A use case that records its events with `tx.record` leaves it unset.
   */
  readonly published?: true;
}
