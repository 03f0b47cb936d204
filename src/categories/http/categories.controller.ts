import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { ApiErrors } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PageQuery } from '../../shared/http/page.query.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { CategoryInUseError, CategoryNameTakenError, CategoryNotFoundError } from '../domain/category.errors.js';
import { CategoriesService } from '../application/categories.service.js';
import { CategoryResponse } from './dto/category.response.js';
import { NewCategoryDto } from './dto/new-category.dto.js';

const CategoryId = new PositiveIdPipe((id) => new CategoryNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No category has this id', new CategoryNotFoundError(7)];
const NAME_TAKEN: DocumentedError = [
  'Another category has this name, ignoring case',
  new CategoryNameTakenError('Dogs'),
];

@ApiTags('Pets')
@Controller('categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'List categories',
    description:
      'Categories ordered by id, paged by `limit` and `cursor`; a `Link: rel="next"` header points to the next page.',
  })
  @ApiOkResponse({ type: [CategoryResponse], description: 'One page of categories' })
  async list(
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CategoryResponse[]> {
    const page = await this.categories.list(query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(CategoryResponse.from);
  }

  @Post()
  @RequireScope('write')
  @ApiOperation({
    operationId: 'createCategory',
    summary: 'Create a category',
    description: "Names are unique, ignoring case. The new category's URL is in `Location`.",
  })
  @ApiCreatedResponse({
    type: CategoryResponse,
    description: 'The created category',
    headers: { Location: { description: 'URL of the new category', schema: { type: 'string' } } },
  })
  @ApiErrors(NAME_TAKEN)
  async create(
    @Body() body: NewCategoryDto,
    @CurrentApiKey() key: ApiKey,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CategoryResponse> {
    const category = await this.categories.create(body, key.id);
    res.setHeader('Location', `/categories/${category.id}`);
    return CategoryResponse.from(category);
  }

  @Get(':categoryId')
  @RequireScope('read')
  @ApiOperation({ operationId: 'getCategory', summary: 'Get a category', description: 'One category by its id.' })
  @ApiOkResponse({ type: CategoryResponse, description: 'The category' })
  @ApiErrors(NOT_FOUND)
  async get(@Param('categoryId', CategoryId) id: number): Promise<CategoryResponse> {
    return CategoryResponse.from(await this.categories.get(id));
  }

  @Put(':categoryId')
  @RequireScope('write')
  @ApiOperation({
    operationId: 'replaceCategory',
    summary: 'Replace a category',
    description: 'Full replace: an omitted `description` is removed.',
  })
  @ApiOkResponse({ type: CategoryResponse, description: 'The updated category' })
  @ApiErrors(NOT_FOUND, NAME_TAKEN)
  async replace(
    @Param('categoryId', CategoryId) id: number,
    @Body() body: NewCategoryDto,
    @CurrentApiKey() key: ApiKey,
  ): Promise<CategoryResponse> {
    return CategoryResponse.from(await this.categories.replace(id, body, key.id));
  }

  @Delete(':categoryId')
  @RequireScope('write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCategory',
    summary: 'Delete a category',
    description: 'Refused while pets belong to the category.',
  })
  @ApiNoContentResponse({ description: 'The category was deleted' })
  @ApiErrors(NOT_FOUND, ['Pets still belong to the category', new CategoryInUseError(7)])
  async remove(@Param('categoryId', CategoryId) id: number, @CurrentApiKey() key: ApiKey): Promise<void> {
    await this.categories.remove(id, key.id);
  }
}
