import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { ErrorKind } from '@petstore/errors';
import type { Order } from './order.js';

/** How long a client may replay a request under one Idempotency-Key. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The first answer given under a key: the placed order, or the domain refusal. */
export type OrderOutcome =
  | { readonly kind: 'placed'; readonly order: Order }
  | { readonly kind: 'refused'; readonly code: string; readonly errorKind: ErrorKind; readonly message: string };

export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly outcome: OrderOutcome;
}

/**
 * Port: Idempotency-Key records per API key. `claim` runs inside the unit of work:
 * it either claims the key for this request (returns null; a concurrent request
 * with the same key waits until this one commits or rolls back) or returns the
 * record a previous request left. Records older than the retention are ignored.
 */
export abstract class IdempotencyRepository {
  abstract claim(
    ownerKeyId: number,
    key: string,
    requestHash: string,
    now: Date,
    tx: Transaction,
  ): Promise<IdempotencyRecord | null>;
  abstract record(ownerKeyId: number, key: string, outcome: OrderOutcome, tx: Transaction): Promise<void>;
  abstract deleteExpired(now: Date): Promise<number>;
}
