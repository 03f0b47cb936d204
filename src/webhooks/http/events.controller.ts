import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, hasScope, RequireScope } from '@petstore/auth';
import type { Request, Response } from 'express';
import { Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { EventsService } from '../application/events.service.js';
import { EventResponse } from './dto/event.response.js';
import { ListEventsQuery } from './dto/list-events.query.js';
import { EVENT_MODELS, EVENT_REF } from './event-schemas.js';

@ApiTags('Store')
@ApiExtraModels(...EVENT_MODELS)
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @RequireScope('read')
  @Stability('beta')
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List events (the feed)',
    description:
      'What happened in the store, oldest first, in id order (ids increase in commit order, so resuming `after` the last id you processed never misses one): stock and pet-status events for every key, and the events of the caller\'s own orders (every order\'s for an admin key). Filtered by `type`, paged by `limit` and `cursor`; a `Link: rel="next"` header points to the next page. Events are kept for at least 7 days.',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: EVENT_REF } }, description: 'One page of events' })
  async list(
    @CurrentApiKey() key: ApiKey,
    @Query() query: ListEventsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponse[]> {
    const viewer = { keyId: key.id, admin: hasScope(key, 'admin') };
    const page = await this.events.feed(viewer, query.type ?? null, query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(EventResponse.from);
  }
}
