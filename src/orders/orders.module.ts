import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InventoryModule } from '../inventory/index.js';
import { IdempotencyJanitor } from './application/idempotency-janitor.js';
import { OrdersService } from './application/orders.service.js';
import { IdempotencyRepository } from './domain/idempotency.js';
import { OrderRepository } from './domain/order.repository.js';
import { OrdersController } from './http/orders.controller.js';
import { IdempotencyKeyOrmEntity } from './infrastructure/idempotency-key.orm-entity.js';
import { PlaceOrderFunction1764115200000 } from './infrastructure/migrations/1764115200000-place-order-function.js';
import { PlaceOrderPublished1795856916517 } from './infrastructure/migrations/1795856916517-place-order-published.js';
import { OrderOrmEntity } from './infrastructure/order.orm-entity.js';
import { TypeOrmIdempotencyRepository } from './infrastructure/typeorm-idempotency.repository.js';
import { TypeOrmOrderRepository } from './infrastructure/typeorm-order.repository.js';

/** This module's tables, as TypeORM entities. */
export const ORDER_ENTITIES = [OrderOrmEntity, IdempotencyKeyOrmEntity];

/** This module's migrations since the core ones (its tables are in CORE_MIGRATIONS). */
export const ORDER_MIGRATIONS = [PlaceOrderFunction1764115200000, PlaceOrderPublished1795856916517];

@Module({
  imports: [TypeOrmModule.forFeature(ORDER_ENTITIES), InventoryModule],
  controllers: [OrdersController],
  providers: [
    OrdersService,
    IdempotencyJanitor,
    { provide: OrderRepository, useClass: TypeOrmOrderRepository },
    { provide: IdempotencyRepository, useClass: TypeOrmIdempotencyRepository },
  ],
  exports: [OrderRepository],
})
export class OrdersModule {}
