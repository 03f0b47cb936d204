import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { STORE_EVENT_TYPES, type StoreEventType } from '../../domain/store-event.js';
import { EVENT_TYPE_SCHEMA } from './event.response.js';

@ApiSchema({ name: 'NewWebhook', description: 'An endpoint to register: where to POST which events' })
export class NewWebhookDto {
  @ApiProperty({
    description:
      'Where the events are POSTed: an `https://` URL on port 443 whose host is public (its addresses are checked at each delivery)',
    maxLength: 2048,
    example: 'https://shop.example.com/hooks/petstore',
  })
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    ...EVENT_TYPE_SCHEMA,
    isArray: true,
    minItems: 1,
    maxItems: STORE_EVENT_TYPES.length,
    uniqueItems: true,
    description: 'The event types to receive',
    example: ['order.placed', 'inventory.changed'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STORE_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(STORE_EVENT_TYPES, { each: true })
  events!: StoreEventType[];

  @ApiPropertyOptional({ description: 'What the endpoint is for', maxLength: 500, example: 'Warehouse sync' })
  @OptionalButNotNull()
  @IsString()
  @IsStorableText()
  @MaxLength(500)
  description?: string;
}

@ApiSchema({
  name: 'WebhookUpdate',
  description: 'Fields to change; `enabled: true` re-enables an endpoint disabled after failing too long',
})
export class WebhookUpdateDto extends PartialType(NewWebhookDto) {
  @ApiPropertyOptional({ description: 'Whether events are sent to it', type: 'boolean' })
  @OptionalButNotNull()
  @IsBoolean()
  enabled?: boolean;
}
