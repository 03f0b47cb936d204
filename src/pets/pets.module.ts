import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/index.js';
import { PetsService } from './application/pets.service.js';
import { PetRepository } from './domain/pet.repository.js';
import { PetsController } from './http/pets.controller.js';
import { PetOrmEntity } from './infrastructure/pet.orm-entity.js';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository.js';

/** This module's tables, as TypeORM entities. */
export const PET_ENTITIES = [PetOrmEntity];

/**
 * The pet catalogue. Another module imports it (`imports: [PetsModule]`) to inject
 * `PetsService`. Its `PetInventoryLines` port is bound by the inventory module, a
 * global module that the composition root imports: pets imports nothing of it.
 */
@Module({
  imports: [TypeOrmModule.forFeature(PET_ENTITIES), CategoriesModule],
  controllers: [PetsController],
  providers: [PetsService, { provide: PetRepository, useClass: TypeOrmPetRepository }],
  exports: [PetRepository, PetsService],
})
export class PetsModule {}
