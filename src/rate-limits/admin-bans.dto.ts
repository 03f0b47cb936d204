import { isIPv4, isIPv6 } from 'node:net';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, ValidateBy } from 'class-validator';
import type { BanView } from './bans.js';

/** An IP address, or an IPv6 /64 as `GET /admin/bans` lists it. */
function isBannableAddress(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (isIPv4(value) || isIPv6(value)) return true;
  return value.endsWith('/64') && isIPv6(value.slice(0, -3));
}

export class AddressBanQuery {
  @ApiProperty({
    description:
      'The address whose ban to lift: an IPv4 or IPv6 address, or an IPv6 /64 as `GET /admin/bans` lists it ' +
      '(any address of a /64 lifts the ban of the whole /64)',
    example: '203.0.113.7',
  })
  @IsString()
  @ValidateBy({
    name: 'isBannableAddress',
    validator: {
      validate: isBannableAddress,
      defaultMessage: () => 'address must be an IPv4 or IPv6 address, or an IPv6 /64 (2001:db8:aa:1::/64)',
    },
  })
  address!: string;
}

@ApiSchema({ name: 'Ban', description: 'A rate-limit ban in force: an API key or an address without a valid key' })
export class BanResponse {
  @ApiProperty({ enum: ['key', 'address'], description: 'Who is banned', example: 'address' })
  kind!: 'key' | 'address';

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The banned key (kind `key`)', example: 7 })
  keyId?: number;

  @ApiPropertyOptional({
    description: 'The banned address (kind `address`): IPv4, or an IPv6 client as its /64',
    example: '203.0.113.7',
  })
  address?: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the ban ends',
    example: '2026-11-28T10:15:00.000Z',
  })
  until!: string;

  @ApiProperty({
    enum: ['ignored_429s', 'route_block'],
    description:
      '`ignored_429s`: it kept sending after 429 responses (every request is refused with `API_KEY_BANNED`); ' +
      "`route_block`: a route's own limit blocks it on that route only (`limit` names the limit)",
    example: 'ignored_429s',
  })
  cause!: 'ignored_429s' | 'route_block';

  @ApiPropertyOptional({ description: 'The route limit that blocks (cause `route_block`)', example: 'export' })
  limit?: string;

  static from(this: void, ban: BanView): BanResponse {
    const response = Object.assign(new BanResponse(), {
      kind: ban.kind,
      until: new Date(ban.until).toISOString(),
      cause: ban.cause,
    });
    if (ban.keyId !== undefined) response.keyId = ban.keyId;
    if (ban.address !== undefined) response.address = ban.address;
    if (ban.limit !== undefined) response.limit = ban.limit;
    return response;
  }
}
