import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { PET_STATUSES, type PetStatus } from '../../domain/pet-status.js';

const PET_STATUS_DESCRIPTION = 'Status of the pet; its inventory entry has the same status';

/**
 * A property of the named enum `PetStatus`: the OpenAPI document references the
 * schema by `$ref` (see `openapi/schemas.ts`), so the description lives on the enum.
 */
export const PET_STATUS_SCHEMA = {
  enum: PET_STATUSES,
  enumName: 'PetStatus',
  description: PET_STATUS_DESCRIPTION,
  enumSchema: { description: PET_STATUS_DESCRIPTION },
} as const;

@ApiSchema({ name: 'NewPet', description: 'A pet as a client sends it; `status` defaults to `available`' })
export class NewPetDto {
  @ApiProperty({ description: "The animal's name", minLength: 1, maxLength: 100, example: 'Rex' })
  @IsString()
  @IsStorableText()
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

  @ApiPropertyOptional(PET_STATUS_SCHEMA)
  @OptionalButNotNull()
  @IsIn(PET_STATUSES)
  status?: PetStatus;
}
