import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PET_INVENTORY_LINES } from '../pets/index.js';
import { InventoryOrmEntity } from './infrastructure/inventory.orm-entity.js';
import { InventoryService } from './application/inventory.service.js';
import { InventoryRepository } from './domain/inventory.repository.js';
import { InventoryController } from './http/inventory.controller.js';
import { TypeOrmInventoryRepository } from './infrastructure/typeorm-inventory.repository.js';

/** This module's tables, as TypeORM entities. */
export const INVENTORY_ENTITIES = [InventoryOrmEntity];

@Module({
  imports: [TypeOrmModule.forFeature(INVENTORY_ENTITIES)],
  controllers: [InventoryController],
  providers: [
    InventoryService,
    { provide: InventoryRepository, useClass: TypeOrmInventoryRepository },
    // The pets module's port to the lines kept here.
    { provide: PET_INVENTORY_LINES, useExisting: InventoryRepository },
  ],
  exports: [InventoryRepository, PET_INVENTORY_LINES, InventoryService],
})
export class InventoryModule {}
