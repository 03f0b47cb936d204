import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Pet } from '../../domain/pet.js';
import type { PetStatus } from '../../domain/pet-status.js';
import { PET_STATUS_SCHEMA } from './new-pet.dto.js';

@ApiSchema({ name: 'Pet', description: 'A pet for sale' })
export class PetResponse {
  @ApiProperty({ description: 'Unique identifier assigned on creation', type: 'integer', format: 'int64', example: 1 })
  id!: number;

  @ApiProperty({ description: "The animal's name", example: 'Rex' })
  name!: string;

  @ApiProperty({
    description: 'ID of the category the animal belongs to',
    type: 'integer',
    format: 'int64',
    example: 1,
  })
  categoryId!: number;

  @ApiPropertyOptional(PET_STATUS_SCHEMA)
  status?: PetStatus;

  static from(this: void, pet: Pet): PetResponse {
    // Field by field, in the order of the JSON answer: no intermediate object (every pet of every page).
    const response = new PetResponse();
    response.id = pet.id;
    response.name = pet.name;
    response.categoryId = pet.categoryId;
    response.status = pet.status;
    return response;
  }
}
