import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { PET_STATUSES, type PetStatus } from '../../domain/pet-status.js';

export const PET_STATUS_SCHEMA = {
  enum: PET_STATUSES,
  enumName: 'PetStatus',
  description: 'Status of the pet',
} as const;

@ApiSchema({ name: 'NewPet', description: 'A pet as a client sends it' })
export class NewPetDto {
  @ApiProperty({ description: "The animal's name", minLength: 1, maxLength: 100, example: 'Rex' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty({
    description: 'ID of the category the animal belongs to',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    example: 1,
  })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  categoryId!: number;

  @ApiPropertyOptional({ ...PET_STATUS_SCHEMA, default: 'available' })
  @OptionalButNotNull()
  @IsIn(PET_STATUSES)
  status?: PetStatus;
}
