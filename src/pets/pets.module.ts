import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/index.js';
import { PetsService } from './application/pets.service.js';
import { PetRepository } from './domain/pet.repository.js';
import { PetsController } from './http/pets.controller.js';
import { PetOrmEntity } from './infrastructure/pet.orm-entity.js';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository.js';

/** This module's tables, as TypeORM entities. */
export const PET_ENTITIES = [PetOrmEntity];

export interface PetsModuleOptions {
  /** A module that provides and exports `PET_INVENTORY_LINES` (the inventory module). */
  readonly inventoryModule: NonNullable<ModuleMetadata['imports']>[number];
}

/** The pet catalogue. The composition root hands it the module that keeps the pets' inventory lines. */
@Module({})
export class PetsModule {
  static forRoot({ inventoryModule }: PetsModuleOptions): DynamicModule {
    return {
      module: PetsModule,
      imports: [TypeOrmModule.forFeature(PET_ENTITIES), CategoriesModule, inventoryModule],
      controllers: [PetsController],
      providers: [PetsService, { provide: PetRepository, useClass: TypeOrmPetRepository }],
      exports: [PetRepository, PetsService],
    };
  }
}
