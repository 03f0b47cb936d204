import type { StoreMetrics } from '../../src/orders/domain/store-metrics.js';

export type StoreEvent = 'placed' | 'completed' | 'cancelled' | `stock-out ${number}`;

/** A StoreMetrics that remembers what it was told, in order. */
export class RecordingStoreMetrics implements StoreMetrics {
  readonly events: StoreEvent[] = [];

  orderPlaced(): void {
    this.events.push('placed');
  }
  orderCompleted(): void {
    this.events.push('completed');
  }
  orderCancelled(): void {
    this.events.push('cancelled');
  }
  stockOut(petId: number): void {
    this.events.push(`stock-out ${petId}`);
  }
}
