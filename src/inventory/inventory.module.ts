import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PET_STOCK_LINES } from '../pets/index.js';
import { InventoryOrmEntity } from './infrastructure/inventory.orm-entity.js';
import { InventoryService } from './application/inventory.service.js';
import { STOCK_REPOSITORY } from './domain/stock.repository.js';
import { InventoryController } from './http/inventory.controller.js';
import { TypeOrmStockRepository } from './infrastructure/typeorm-stock.repository.js';

/** This module's tables, as TypeORM entities. */
export const INVENTORY_ENTITIES = [InventoryOrmEntity];

@Module({
  imports: [TypeOrmModule.forFeature(INVENTORY_ENTITIES)],
  controllers: [InventoryController],
  providers: [
    InventoryService,
    {
      provide: STOCK_REPOSITORY,
      useFactory: (db: DataSource) => new TypeOrmStockRepository(db.manager),
      inject: [DataSource],
    },
    // The pets module's port to the lines kept here.
    { provide: PET_STOCK_LINES, useExisting: STOCK_REPOSITORY },
  ],
  exports: [STOCK_REPOSITORY, PET_STOCK_LINES, InventoryService],
})
export class InventoryModule {}
