import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PET_INVENTORY_LINES } from '../pets/index.js';
import { InventoryOrmEntity } from './infrastructure/inventory.orm-entity.js';
import { InventoryService } from './application/inventory.service.js';
import { INVENTORY_REPOSITORY } from './domain/inventory.repository.js';
import { InventoryController } from './http/inventory.controller.js';
import { TypeOrmInventoryRepository } from './infrastructure/typeorm-inventory.repository.js';

/** This module's tables, as TypeORM entities. */
export const INVENTORY_ENTITIES = [InventoryOrmEntity];

@Module({
  imports: [TypeOrmModule.forFeature(INVENTORY_ENTITIES)],
  controllers: [InventoryController],
  providers: [
    InventoryService,
    {
      provide: INVENTORY_REPOSITORY,
      useFactory: (db: DataSource) => new TypeOrmInventoryRepository(db.manager),
      inject: [DataSource],
    },
    // The pets module's port to the lines kept here.
    { provide: PET_INVENTORY_LINES, useExisting: INVENTORY_REPOSITORY },
  ],
  exports: [INVENTORY_REPOSITORY, PET_INVENTORY_LINES, InventoryService],
})
export class InventoryModule {}
