import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { PetsService } from './application/pets.service.js';
import { PET_REPOSITORY } from './domain/pet.repository.js';
import { PetsController } from './http/pets.controller.js';
import { PetOrmEntity } from './infrastructure/pet.orm-entity.js';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository.js';

/** This module's tables, as TypeORM entities. */
export const PET_ENTITIES = [PetOrmEntity];

@Module({
  imports: [TypeOrmModule.forFeature(PET_ENTITIES), CategoriesModule, InventoryModule],
  controllers: [PetsController],
  providers: [PetsService, { provide: PET_REPOSITORY, useClass: TypeOrmPetRepository }],
  exports: [PET_REPOSITORY, PetsService],
})
export class PetsModule {}
