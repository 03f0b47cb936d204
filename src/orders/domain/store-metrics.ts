/**
 * What the store reports about itself for monitoring: one call per order event
 * that committed. An outgoing port: the use cases depend on this interface only,
 * and an adapter (Prometheus) counts.
 */
export interface StoreMetrics {
  orderPlaced(): void;
  orderCompleted(): void;
  orderCancelled(): void;
  /** An order took the last units of a pet: its stock reached 0. */
  stockOut(petId: number): void;
}

export const STORE_METRICS = Symbol('StoreMetrics');

/** Reports nothing: for contexts without monitoring. */
export const NO_STORE_METRICS: StoreMetrics = {
  orderPlaced: () => undefined,
  orderCompleted: () => undefined,
  orderCancelled: () => undefined,
  stockOut: () => undefined,
};
