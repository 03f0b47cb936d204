import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PetInventoryLines } from '../pets/index.js';
import { InventoryOrmEntity } from './infrastructure/inventory.orm-entity.js';
import { InventoryService } from './application/inventory.service.js';
import { InventoryRepository } from './domain/inventory.repository.js';
import { InventoryController } from './http/inventory.controller.js';
import { TypeOrmInventoryRepository } from './infrastructure/typeorm-inventory.repository.js';

/** This module's tables, as TypeORM entities. */
export const INVENTORY_ENTITIES = [InventoryOrmEntity];

/**
 * Stock per pet. Global because it binds the pets module's `PetInventoryLines` port
 * and the pets module cannot import it (inventory depends on pets): the exports of
 * a global module are found by every module once the composition root imports it.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature(INVENTORY_ENTITIES)],
  controllers: [InventoryController],
  providers: [
    InventoryService,
    { provide: InventoryRepository, useClass: TypeOrmInventoryRepository },
    // The pets module's port to the lines kept here.
    { provide: PetInventoryLines, useExisting: InventoryRepository },
  ],
  exports: [InventoryRepository, PetInventoryLines, InventoryService],
})
export class InventoryModule {}
