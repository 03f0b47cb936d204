/**
 * What the store reports about itself for monitoring: one call per order event
 * that committed. An outgoing port: the use cases depend on this class only,
 * and an adapter (Prometheus) counts.
 */
export abstract class StoreMetrics {
  abstract orderPlaced(): void;
  abstract orderCompleted(): void;
  abstract orderCancelled(): void;
  /** An order took the last units of a pet: its stock reached 0. */
  abstract stockOut(petId: number): void;
}

/** Reports nothing: for contexts without monitoring. */
export const NO_STORE_METRICS: StoreMetrics = {
  orderPlaced: () => undefined,
  orderCompleted: () => undefined,
  orderCancelled: () => undefined,
  stockOut: () => undefined,
};
