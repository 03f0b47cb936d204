import type { ErrorKind } from '@petstore/errors';
import type { StockLine } from '../../inventory/index.js';
import type { Order } from './order.js';

/** How long a client may replay a request under one Idempotency-Key. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * The first answer given under a key: the placed order, or the refusal — as the line
 * the rule refused it on (null: the pet had no inventory line), from which the rule
 * names it again; or, as builds before `orders_place` stored it, as the error itself.
 */
export type OrderOutcome =
  | { readonly kind: 'placed'; readonly order: Order }
  | { readonly kind: 'refusedOn'; readonly line: Omit<StockLine, 'petId'> | null }
  | { readonly kind: 'refused'; readonly code: string; readonly errorKind: ErrorKind; readonly message: string };

/** What an earlier request under the same key left. */
export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly outcome: OrderOutcome;
}

/**
 * Port: the Idempotency-Key records' upkeep. They are claimed and written by the
 * order placement itself (`OrderRepository.placeFromStock`); records older than
 * the retention are ignored there and deleted here.
 */
export abstract class IdempotencyRepository {
  abstract deleteExpired(now: Date): Promise<number>;
}
