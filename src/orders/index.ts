/** The orders module's public entry: all that other modules and the composition root may import from it. */
export type { OrderCancelled, OrderCompleted, OrderPlaced } from './domain/order.events.js';
export { StoreMetrics } from './domain/store-metrics.js';
export { OrderResponse } from './http/dto/order.response.js';
export { ORDER_ENTITIES, ORDER_MIGRATIONS, OrdersModule } from './orders.module.js';
