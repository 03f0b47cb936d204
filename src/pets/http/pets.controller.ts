import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DocumentedError } from '@petstore/errors';
import { type ApiKey, CurrentApiKey, RequireScope } from '@petstore/auth';
import type { Request, Response } from 'express';
import { ApiErrors, ApiErrorsWithHeaders, Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import {
  OperationSunsetError,
  PetCategoryNotFoundError,
  PetHasOrdersError,
  PetNotFoundError,
} from '../domain/pet.errors.js';
import { PetsService } from '../application/pets.service.js';
import { PetByIdSunsetGuard } from './sunset.guard.js';
import { ListPetsQuery } from './dto/list-pets.query.js';
import { NewPetDto } from './dto/new-pet.dto.js';
import { PetPatchDto } from './dto/pet-patch.dto.js';
import { PetResponse } from './dto/pet.response.js';

const PetId = new PositiveIdPipe((id) => new PetNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No pet has this id', new PetNotFoundError(42)];
const CATEGORY_MISSING: DocumentedError = [
  'The body names a category that does not exist',
  new PetCategoryNotFoundError(7),
];

const DEPRECATION_HEADERS = {
  Deprecation: {
    description: 'RFC 9745: `@` and the Unix time when the operation was deprecated',
    schema: { type: 'string' },
    example: '@1793491200',
  },
  Sunset: {
    description: 'RFC 8594: HTTP-date from which the operation answers 410',
    schema: { type: 'string' },
    example: 'Wed, 30 Jun 2027 00:00:00 GMT',
  },
  Link: {
    description: 'The successor: `</pets?id={petId}>; rel="successor-version"`',
    schema: { type: 'string' },
    example: '</pets?id=1>; rel="successor-version"',
  },
} as const;

@ApiTags('Pets')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List pets',
    description:
      'Pets ordered by id, filtered by `status`, `categoryId` and `id`, paged by `limit` and `cursor`; a `Link: rel="next"` header points to the next page.',
  })
  @ApiOkResponse({ schema: { $ref: '#/components/schemas/Pets' }, description: 'One page of pets' })
  async list(
    @Query() query: ListPetsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PetResponse[]> {
    const page = await this.pets.list(query.toFilter(), query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(PetResponse.from);
  }

  @Post()
  @RequireScope('write')
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Add a pet',
    description: "`status` defaults to `available`. The new pet's URL is in `Location`.",
  })
  @ApiCreatedResponse({
    type: PetResponse,
    description: 'The created pet',
    headers: { Location: { description: 'URL of the new pet', schema: { type: 'string' } } },
  })
  @ApiErrors(CATEGORY_MISSING)
  async create(
    @Body() body: NewPetDto,
    @CurrentApiKey() key: ApiKey,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PetResponse> {
    const pet = await this.pets.create(body, key.id);
    res.setHeader('Location', `/pets/${pet.id}`);
    return PetResponse.from(pet);
  }

  @Get(':petId')
  @RequireScope('read')
  @UseGuards(PetByIdSunsetGuard)
  @ApiOperation({
    operationId: 'getPetById',
    summary: 'Get a pet (deprecated)',
    description:
      'Deprecated: use `GET /pets?id={petId}` instead. Responses carry `Deprecation`, `Sunset` and a `successor-version` link; from the sunset date the operation answers 410 `OPERATION_SUNSET`.',
    deprecated: true,
  })
  @ApiOkResponse({ type: PetResponse, description: 'The pet', headers: DEPRECATION_HEADERS })
  @ApiErrorsWithHeaders(DEPRECATION_HEADERS, NOT_FOUND, [
    'The operation is past its sunset date; use `GET /pets?id={petId}`',
    new OperationSunsetError('GET /pets/{petId}', 'GET /pets?id=42', new Date('2027-06-30T00:00:00Z')),
  ])
  async get(@Param('petId', PetId) id: number): Promise<PetResponse> {
    return PetResponse.from(await this.pets.get(id));
  }

  @Put(':petId')
  @RequireScope('write')
  @ApiOperation({
    operationId: 'replacePet',
    summary: 'Replace a pet',
    description: 'Full replace: an omitted `status` returns to `available`.',
  })
  @ApiOkResponse({ type: PetResponse, description: 'The updated pet' })
  @ApiErrors(NOT_FOUND, CATEGORY_MISSING)
  async replace(
    @Param('petId', PetId) id: number,
    @Body() body: NewPetDto,
    @CurrentApiKey() key: ApiKey,
  ): Promise<PetResponse> {
    return PetResponse.from(await this.pets.replace(id, body, key.id));
  }

  @Patch(':petId')
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'updatePet',
    summary: 'Update some fields of a pet',
    description: 'Only the fields present in the body change.',
  })
  @ApiOkResponse({ type: PetResponse, description: 'The updated pet' })
  @ApiErrors(NOT_FOUND, CATEGORY_MISSING)
  async patch(
    @Param('petId', PetId) id: number,
    @Body() body: PetPatchDto,
    @CurrentApiKey() key: ApiKey,
  ): Promise<PetResponse> {
    return PetResponse.from(await this.pets.patch(id, body, key.id));
  }

  @Delete(':petId')
  @RequireScope('write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deletePet',
    summary: 'Delete a pet',
    description: 'Refused while any order references the pet.',
  })
  @ApiNoContentResponse({ description: 'The pet was deleted' })
  @ApiErrors(NOT_FOUND, ['Orders reference the pet', new PetHasOrdersError(42)])
  async remove(@Param('petId', PetId) id: number, @CurrentApiKey() key: ApiKey): Promise<void> {
    await this.pets.remove(id, key.id);
  }
}
