import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { PET_STATUSES, type PetStatus } from '../../domain/pet-status.js';
import { PET_STATUS_SCHEMA } from './new-pet.dto.js';

/**
 * PATCH body: any subset of NewPet's fields, validated as in NewPet. Written out
 * rather than `PartialType`, whose `@IsOptional` would let `null` through.
 */
@ApiSchema({ name: 'PetPatch', description: 'Any subset of the fields of NewPet' })
export class PetPatchDto {
  @ApiPropertyOptional({ description: "The animal's name", minLength: 1, maxLength: 100, example: 'Rex' })
  @OptionalButNotNull()
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({
    description: 'ID of the category the animal belongs to',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    example: 1,
  })
  @OptionalButNotNull()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  categoryId?: number;

  @ApiPropertyOptional(PET_STATUS_SCHEMA)
  @OptionalButNotNull()
  @IsIn(PET_STATUSES)
  status?: PetStatus;
}
