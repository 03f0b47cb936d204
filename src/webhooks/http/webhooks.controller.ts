import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { ApiErrors, Stability } from '../../shared/http/api-docs.js';
import { PageQuery } from '../../shared/http/page.query.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { WebhooksService } from '../application/webhooks.service.js';
import {
  DeliveryNotFoundError,
  WebhookLimitReachedError,
  WebhookNotFoundError,
  WebhookTargetNotAllowedError,
} from '../domain/webhook.errors.js';
import { WEBHOOK_CALLBACKS } from './webhook-callbacks.js';
import { NewWebhookDto, WebhookUpdateDto } from './dto/new-webhook.dto.js';
import { RotatedSecretResponse } from './dto/rotated-secret.response.js';
import { CreatedWebhookResponse, DeliveryResponse, WebhookResponse } from './dto/webhook.response.js';

const WebhookId = new PositiveIdPipe((id) => new WebhookNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No endpoint with this id belongs to this key', new WebhookNotFoundError(7)];
const TARGET: DocumentedError = [
  'The URL is not `https://` (or `http://` where allowed), names a port not allowed (443 only by default) or credentials, or its host is a loopback, private, link-local, metadata or otherwise special-purpose address (in any spelling) or a local-only name (`localhost`, `.local`, `.internal`, …). Names are not resolved here: their addresses are checked at each delivery',
  new WebhookTargetNotAllowedError('169.254.169.254 is in 169.254.0.0/16, link-local (cloud metadata 169.254.169.254)'),
];

@ApiTags('Store')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description:
      "The events of the listed types that the key may see (stock and pet-status events, its own orders' events) are POSTed to the URL, signed per Standard Webhooks with the secret returned here once. At most 10 endpoints per key. Delivery is at least once: deduplicate by `webhook-id`.",
    callbacks: WEBHOOK_CALLBACKS,
  })
  @ApiCreatedResponse({ type: CreatedWebhookResponse, description: 'The endpoint, with its secret (shown this once)' })
  @ApiErrors(['The key already has 10 endpoints', new WebhookLimitReachedError(10)], TARGET)
  async create(@CurrentApiKey() key: ApiKey, @Body() body: NewWebhookDto): Promise<CreatedWebhookResponse> {
    const { webhook, secret } = await this.webhooks.create(key.id, body);
    return CreatedWebhookResponse.withSecret(webhook, secret);
  }

  @Get()
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: "List the key's webhook endpoints",
    description: 'Paged by `limit` and `cursor`.',
  })
  @ApiOkResponse({ type: [WebhookResponse], description: 'One page of endpoints' })
  async list(
    @CurrentApiKey() key: ApiKey,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookResponse[]> {
    const page = await this.webhooks.list(key.id, query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(WebhookResponse.from);
  }

  @Get(':webhookId')
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getWebhook',
    summary: 'Get a webhook endpoint',
    description: 'Its secret is not shown.',
  })
  @ApiOkResponse({ type: WebhookResponse, description: 'The endpoint' })
  @ApiErrors(NOT_FOUND)
  async get(@CurrentApiKey() key: ApiKey, @Param('webhookId', WebhookId) id: number): Promise<WebhookResponse> {
    return WebhookResponse.from(await this.webhooks.get(key.id, id));
  }

  @Patch(':webhookId')
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      'Only the fields present change; `enabled: true` re-enables an endpoint disabled after failing for 24 hours.',
  })
  @ApiOkResponse({ type: WebhookResponse, description: 'The updated endpoint' })
  @ApiErrors(NOT_FOUND, TARGET)
  async update(
    @CurrentApiKey() key: ApiKey,
    @Param('webhookId', WebhookId) id: number,
    @Body() body: WebhookUpdateDto,
  ): Promise<WebhookResponse> {
    return WebhookResponse.from(await this.webhooks.update(key.id, id, body));
  }

  @Delete(':webhookId')
  @RequireScope('write')
  @Stability('beta')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries go with it.',
  })
  @ApiNoContentResponse({ description: 'The endpoint was deleted' })
  @ApiErrors(NOT_FOUND)
  async remove(@CurrentApiKey() key: ApiKey, @Param('webhookId', WebhookId) id: number): Promise<void> {
    await this.webhooks.remove(key.id, id);
  }

  @Post(':webhookId/test')
  @RequireScope('write')
  @Stability('beta')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a ping to a webhook endpoint',
    description:
      'Queues a signed `ping` message (`{type: "ping", occurredAt, data: {webhookId}}`); its delivery is listed with the others.',
  })
  @ApiAcceptedResponse({ type: DeliveryResponse, description: 'The ping is queued' })
  @ApiErrors(NOT_FOUND)
  async test(@CurrentApiKey() key: ApiKey, @Param('webhookId', WebhookId) id: number): Promise<DeliveryResponse> {
    return DeliveryResponse.from(await this.webhooks.ping(key.id, id));
  }

  @Post(':webhookId/rotate-secret')
  @RequireScope('write')
  @Stability('beta')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      'Returns a new secret, shown this once. Until `previousSecretExpiresAt` (24 hours later by default) each delivery carries two signatures, space-separated in `webhook-signature`: one by the new secret, one by the secret it replaced, so the receiver may switch at any moment in between; then the new one only. Rotating again in that time keeps the secret being replaced beside the new one and drops the older one at once.',
  })
  @ApiOkResponse({ type: RotatedSecretResponse, description: 'The new secret (shown this once)' })
  @ApiErrors(NOT_FOUND)
  async rotateSecret(
    @CurrentApiKey() key: ApiKey,
    @Param('webhookId', WebhookId) id: number,
  ): Promise<RotatedSecretResponse> {
    return RotatedSecretResponse.from(await this.webhooks.rotateSecret(key.id, id));
  }

  @Get(':webhookId/deliveries')
  @RequireScope('write')
  @Stability('beta')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "List an endpoint's deliveries",
    description:
      'Each with its latest attempt: status code, duration, error, next retry. Paged by `limit` and `cursor`.',
  })
  @ApiOkResponse({ type: [DeliveryResponse], description: 'One page of deliveries' })
  @ApiErrors(NOT_FOUND)
  async deliveries(
    @CurrentApiKey() key: ApiKey,
    @Param('webhookId', WebhookId) id: number,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeliveryResponse[]> {
    const page = await this.webhooks.deliveriesOf(key.id, id, query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(DeliveryResponse.from);
  }

  @Post(':webhookId/deliveries/:deliveryId/retry')
  @RequireScope('write')
  @Stability('beta')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again',
    description: 'Due at once, with a fresh retry window; a delivered one is sent again (same `webhook-id`).',
  })
  @ApiAcceptedResponse({ type: DeliveryResponse, description: 'The delivery is queued' })
  @ApiErrors(['No such endpoint of this key, or no such delivery of it', new DeliveryNotFoundError(7, 42)])
  async retry(
    @CurrentApiKey() key: ApiKey,
    @Param('webhookId', WebhookId) id: number,
    @Param('deliveryId', WebhookId) deliveryId: number,
  ): Promise<DeliveryResponse> {
    return DeliveryResponse.from(await this.webhooks.retry(key.id, id, deliveryId));
  }
}
