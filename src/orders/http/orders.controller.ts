import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, hasScope, RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { ApiErrors, Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { InsufficientStockError } from '../../inventory/index.js';
import {
  IdempotencyKeyReusedError,
  OrderAlreadyCompleteError,
  OrderNotFoundError,
  OrderPetNotFoundError,
  PetNotAvailableError,
} from '../domain/order.errors.js';
import { OrdersService } from '../application/orders.service.js';
import type { OrderViewer } from '../domain/order.js';
import { CompleteOrderDto } from './dto/complete-order.dto.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { OrderResponse } from './dto/order.response.js';
import { PlaceOrderDto } from './dto/place-order.dto.js';
import { idempotencyToken } from './idempotency-key.js';

const OrderId = new PositiveIdPipe((id) => new OrderNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No order with this id is visible to this key', new OrderNotFoundError(7)];
const ALREADY_COMPLETE: DocumentedError = ['The order is already complete', new OrderAlreadyCompleteError(7)];

const viewerOf = (key: ApiKey): OrderViewer => ({ keyId: key.id, admin: hasScope(key, 'admin') });

@ApiTags('Store')
@Controller('store/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description:
      "The caller's orders (every key's for an admin key), ordered by id, filtered by `petId` and `complete`, paged by `limit` and `cursor`.",
  })
  @ApiOkResponse({ type: [OrderResponse], description: 'One page of orders' })
  async list(
    @CurrentApiKey() key: ApiKey,
    @Query() query: ListOrdersQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrderResponse[]> {
    const page = await this.orders.list(viewerOf(key), query.toFilter(), query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(OrderResponse.from);
  }

  @Post()
  @RequireScope('write')
  @ApiOperation({
    operationId: 'placeOrder',
    summary: 'Place an order',
    description:
      'Needs `petId` and `quantity` (1–1000); `shipDate` is optional; `id` and `complete` must be absent. ' +
      'The pet must be `available` with enough stock; stock drops atomically and the last unit makes the pet `pending`. ' +
      'With an `Idempotency-Key`, repeating the request with the same body within 24 hours returns the first answer again.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Client-chosen key (1–255 visible ASCII characters) making retries safe; scoped to the API key',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  })
  @ApiBody({
    type: OrderResponse,
    description: 'The order: `petId` and `quantity` are required by the service',
    examples: {
      order: { summary: 'Two units of pet 1', value: { petId: 1, quantity: 2 } },
      withShipDate: {
        summary: 'With an expected ship date',
        value: { petId: 1, quantity: 1, shipDate: '2026-12-01T09:00:00.000Z' },
      },
    },
  })
  @ApiCreatedResponse({
    type: OrderResponse,
    description: 'The placed order (or, for a repeated Idempotency-Key, the first answer)',
    headers: {
      Location: { description: 'URL of the new order', schema: { type: 'string' } },
      'Idempotent-Replayed': {
        description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiErrors(
    ['The pet is not available', new PetNotAvailableError(42, 'sold')],
    ['Stock is short', new InsufficientStockError(42, 1, 3)],
    ['The Idempotency-Key was used with another body', new IdempotencyKeyReusedError()],
    ['No pet has this `petId`', new OrderPetNotFoundError(42)],
  )
  async place(
    @CurrentApiKey() key: ApiKey,
    @Body() body: PlaceOrderDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrderResponse> {
    const { order, replayed } = await this.orders.place(
      viewerOf(key),
      { petId: body.petId, quantity: body.quantity, shipDate: body.shipDate ? new Date(body.shipDate) : undefined },
      idempotencyToken(idempotencyKey, body),
    );
    res.setHeader('Location', `/store/orders/${order.id}`);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    return OrderResponse.from(order);
  }

  @Get(':orderId')
  @RequireScope('read')
  @ApiOperation({
    operationId: 'getOrder',
    summary: 'Get an order',
    description: "One of the caller's orders (any order for an admin key); another key's order is 404.",
  })
  @ApiOkResponse({ type: OrderResponse, description: 'The order' })
  @ApiErrors(NOT_FOUND)
  async get(@CurrentApiKey() key: ApiKey, @Param('orderId', OrderId) id: number): Promise<OrderResponse> {
    return OrderResponse.from(await this.orders.get(viewerOf(key), id));
  }

  @Patch(':orderId')
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'completeOrder',
    summary: 'Fulfil an order',
    description:
      'Sets `complete` (one-way) and `shipDate` (default now). When the pet has no stock and no open order left, it becomes `sold`.',
  })
  @ApiOkResponse({ type: OrderResponse, description: 'The completed order' })
  @ApiErrors(NOT_FOUND, ALREADY_COMPLETE)
  async complete(
    @CurrentApiKey() key: ApiKey,
    @Param('orderId', OrderId) id: number,
    @Body() body: CompleteOrderDto,
  ): Promise<OrderResponse> {
    const shipDate = body.shipDate ? new Date(body.shipDate) : undefined;
    return OrderResponse.from(await this.orders.complete(viewerOf(key), id, shipDate));
  }

  @Delete(':orderId')
  @RequireScope('write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'cancelOrder',
    summary: 'Cancel an open order',
    description: 'Its units return to stock and a `pending` pet becomes `available`; the order is removed.',
  })
  @ApiNoContentResponse({ description: 'The order was cancelled' })
  @ApiErrors(NOT_FOUND, ALREADY_COMPLETE)
  async cancel(@CurrentApiKey() key: ApiKey, @Param('orderId', OrderId) id: number): Promise<void> {
    await this.orders.cancel(viewerOf(key), id);
  }
}
