import { Body, Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { ApiErrors } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { PetNotFoundError } from '../../pets/index.js';
import { InventoryService } from '../application/inventory.service.js';
import { InventoryItemResponse } from './dto/inventory-item.response.js';
import { ListInventoryQuery } from './dto/list-inventory.query.js';
import { SetInventoryDto } from './dto/set-inventory.dto.js';

const PetId = new PositiveIdPipe((id) => new PetNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No pet has this id', new PetNotFoundError(42)];

@ApiTags('Store')
@Controller('store/inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({
    operationId: 'listInventory',
    summary: 'List stock per pet',
    description: 'One entry per pet, ordered by pet id, filtered by `status`, paged by `limit` and `cursor`.',
  })
  @ApiOkResponse({ type: [InventoryItemResponse], description: 'One page of inventory entries' })
  async list(
    @Query() query: ListInventoryQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InventoryItemResponse[]> {
    const page = await this.inventory.list(query.status, query.toPageRequest());
    setNextPageLink(req, res, page, (item) => item.petId);
    return page.items.map(InventoryItemResponse.from);
  }

  @Get(':petId')
  @RequireScope('read')
  @ApiOperation({
    operationId: 'getInventory',
    summary: "Get a pet's stock",
    description: 'The inventory entry of one pet: units in stock and the pet status.',
  })
  @ApiOkResponse({ type: InventoryItemResponse, description: 'The inventory entry' })
  @ApiErrors(NOT_FOUND)
  async get(@Param('petId', PetId) petId: number): Promise<InventoryItemResponse> {
    return InventoryItemResponse.from(await this.inventory.get(petId));
  }

  @Put(':petId')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'setInventory',
    summary: "Set a pet's stock (restock)",
    description:
      'Quantity 0–1,000,000. Units make a `pending` or `sold` pet `available`; 0 makes an `available` pet `pending` while it has open orders, else `sold`.',
  })
  @ApiBody({ type: SetInventoryDto })
  @ApiOkResponse({ type: InventoryItemResponse, description: 'The updated entry' })
  @ApiErrors(NOT_FOUND)
  async set(
    @Param('petId', PetId) petId: number,
    @Body() body: SetInventoryDto,
    @CurrentApiKey() key: ApiKey,
  ): Promise<InventoryItemResponse> {
    return InventoryItemResponse.from(await this.inventory.setQuantity(petId, body.quantity, key.id));
  }
}
