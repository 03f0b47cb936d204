import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, hasScope, RequireScope } from '@petstore/auth';
import { ApiErrors } from '../../../../src/shared/http/api-docs.js';
import { PositiveIdPipe } from '../../../../src/shared/http/positive-id.pipe.js';
import { ExampleLoyaltyService } from '../application/loyalty.service.js';
import { LoyaltyAccountNotFoundError } from '../domain/loyalty.errors.js';
import { LoyaltyPointsResponse } from './loyalty-points.response.js';

@ApiTags('Example loyalty')
@Controller('examples/loyalty')
export class ExampleLoyaltyController {
  constructor(private readonly loyalty: ExampleLoyaltyService) {}

  @Get(':keyId')
  @RequireScope('read')
  @ApiOperation({
    operationId: 'getExampleLoyaltyPoints',
    summary: "Get a key's loyalty points",
    description:
      "10 points per unit ordered, taken back when the order is cancelled. A key sees its own points, an admin key any key's.",
  })
  @ApiOkResponse({ type: LoyaltyPointsResponse, description: 'The points' })
  @ApiErrors(["Another key's points, for a key without the admin scope", new LoyaltyAccountNotFoundError(7)])
  async get(
    @CurrentApiKey() key: ApiKey,
    @Param('keyId', new PositiveIdPipe((id) => new LoyaltyAccountNotFoundError(id))) keyId: number,
  ): Promise<LoyaltyPointsResponse> {
    const viewer = { keyId: key.id, admin: hasScope(key, 'admin') };
    return LoyaltyPointsResponse.from(await this.loyalty.balance(viewer, keyId));
  }
}
