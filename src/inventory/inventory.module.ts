import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InventoryService } from './application/inventory.service.js';
import { STOCK_REPOSITORY } from './domain/stock.repository.js';
import { InventoryController } from './http/inventory.controller.js';
import { TypeOrmStockRepository } from './infrastructure/typeorm-stock.repository.js';

@Module({
  controllers: [InventoryController],
  providers: [
    InventoryService,
    {
      provide: STOCK_REPOSITORY,
      useFactory: (db: DataSource) => new TypeOrmStockRepository(db.manager),
      inject: [DataSource],
    },
  ],
  exports: [STOCK_REPOSITORY],
})
export class InventoryModule {}
