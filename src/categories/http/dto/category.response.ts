import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Category } from '../../domain/category.js';

@ApiSchema({ name: 'Category', description: 'A group of pets' })
export class CategoryResponse {
  @ApiProperty({ description: 'Unique identifier assigned on creation', type: 'integer', format: 'int64', example: 1 })
  id!: number;

  @ApiProperty({ description: 'Category name (a kind of animal)', example: 'Dogs' })
  name!: string;

  @ApiPropertyOptional({ description: 'Short description of the category', example: 'Loyal companions' })
  description?: string;

  static from(this: void, category: Category): CategoryResponse {
    const response = Object.assign(new CategoryResponse(), { id: category.id, name: category.name });
    if (category.description !== undefined) response.description = category.description;
    return response;
  }
}
