import type { Pet } from '../domain/pet.js';
import { fromInt8, toInt8 } from '../../database/index.js';
import type { PetOrmEntity } from './pet.orm-entity.js';

export const PetMapper = {
  toDomain(this: void, row: PetOrmEntity): Pet {
    return { id: fromInt8(row.id), name: row.name, categoryId: fromInt8(row.categoryId), status: row.status };
  },
  toColumns(pet: Omit<Pet, 'id'>): Pick<PetOrmEntity, 'name' | 'categoryId' | 'status'> {
    return { name: pet.name, categoryId: toInt8(pet.categoryId), status: pet.status };
  },
};
