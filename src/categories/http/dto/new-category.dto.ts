import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';

@ApiSchema({ name: 'NewCategory', description: 'A category as a client sends it' })
export class NewCategoryDto {
  @ApiProperty({ description: 'Category name (a kind of animal)', minLength: 1, maxLength: 100, example: 'Dogs' })
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({
    description: 'Short description of the category',
    maxLength: 500,
    example: 'Loyal companions',
  })
  @OptionalButNotNull()
  @IsString()
  @IsStorableText()
  @MaxLength(500)
  description?: string;
}
