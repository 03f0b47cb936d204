import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type ApiKey, SCOPES } from '@petstore/auth';
import { PLAN_NAMES } from '../../../rate-limits/plan.js';
import { BETA_FIELD } from '../../../shared/http/api-docs.js';
import { KeyLimitsDto } from './key-limits.dto.js';

@ApiSchema({ name: 'ApiKey', description: 'An issued API key (never the key itself)' })
export class ApiKeyResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Key id' })
  id!: number;

  @ApiProperty({ description: 'Who or what the key is for' })
  name!: string;

  @ApiProperty({ description: 'The first characters of the key, to recognise it', example: 'psk_Xk3f9aQe' })
  prefix!: string;

  @ApiProperty({
    enum: PLAN_NAMES,
    enumName: 'Plan',
    description: "Rate-limit plan (for a key in an account, the account's)",
  })
  plan!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...SCOPES] }, description: 'What the key may do' })
  scopes!: string[];

  @ApiPropertyOptional({ type: KeyLimitsDto, description: "Own quota (enterprise keys; in an account, the account's)" })
  limits?: KeyLimitsDto;

  @ApiProperty({
    ...BETA_FIELD,
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'The account the key belongs to (it shares its plan, limits and windows); null: none',
    example: 3,
  })
  accountId!: number | null;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the key was issued' })
  createdAt!: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'When the key was revoked' })
  revokedAt?: string;

  @ApiPropertyOptional({
    ...BETA_FIELD,
    type: 'string',
    format: 'date-time',
    description: 'When the key stops working (401 `API_KEY_EXPIRED` after it)',
    example: '2027-06-30T00:00:00.000Z',
  })
  expiresAt?: string;

  @ApiPropertyOptional({
    ...BETA_FIELD,
    type: 'array',
    items: { type: 'string' },
    description: 'Addresses and CIDR ranges the key may be used from (absent: any)',
    example: ['203.0.113.0/24'],
  })
  allowedAddresses?: string[];

  @ApiPropertyOptional({
    ...BETA_FIELD,
    type: 'string',
    format: 'date-time',
    description:
      'When the key was last used (a request counted or refused with 429), as of the last usage flush: each ' +
      'instance writes it every few seconds, so the latest seconds may be missing. Absent: never used',
    example: '2026-11-28T09:41:07.000Z',
  })
  lastUsedAt?: string;

  @ApiPropertyOptional({
    ...BETA_FIELD,
    type: 'string',
    format: 'date-time',
    description:
      'After a roll: when the previous secret stops (or stopped) working; absent when the key was never rolled',
    example: '2026-11-29T09:00:00.000Z',
  })
  previousKeyExpiresAt?: string;

  @ApiPropertyOptional({
    ...BETA_FIELD,
    type: 'string',
    format: 'date-time',
    description:
      'After a roll: when the previous secret was last used, as of the last usage flush (absent: not since the ' +
      'roll), so an admin knows whether the overlap can be ended early',
    example: '2026-11-28T09:30:12.000Z',
  })
  previousKeyLastUsedAt?: string;

  static from(this: void, key: ApiKey): ApiKeyResponse {
    const response = Object.assign(new ApiKeyResponse(), {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      plan: key.plan,
      scopes: [...key.scopes],
      accountId: key.account?.id ?? null,
      createdAt: key.createdAt.toISOString(),
    });
    if (key.limits) response.limits = { ...key.limits };
    if (key.revokedAt) response.revokedAt = key.revokedAt.toISOString();
    if (key.expiresAt) response.expiresAt = key.expiresAt.toISOString();
    if (key.allowedAddresses) response.allowedAddresses = [...key.allowedAddresses];
    if (key.lastUsedAt) response.lastUsedAt = key.lastUsedAt.toISOString();
    if (key.previousKeyExpiresAt) response.previousKeyExpiresAt = key.previousKeyExpiresAt.toISOString();
    if (key.previousKeyLastUsedAt) response.previousKeyLastUsedAt = key.previousKeyLastUsedAt.toISOString();
    return response;
  }
}

@ApiSchema({ name: 'IssuedApiKey', description: 'A newly issued API key; `key` is shown only in this response' })
export class IssuedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    description: 'The key to send in `X-API-Key`; it is not stored and cannot be shown again',
    example: 'psk_Xk3f9aQe…',
  })
  key!: string;

  static override from(issued: ApiKey & { readonly secret: string }): IssuedApiKeyResponse {
    return Object.assign(new IssuedApiKeyResponse(), ApiKeyResponse.from(issued), { key: issued.secret });
  }
}

@ApiSchema({
  name: 'RolledApiKey',
  description: 'A rolled API key: its new secret (shown only in this response) and the end of the overlap',
})
export class RolledApiKeyResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Key id (unchanged by the roll)', example: 7 })
  id!: number;

  @ApiProperty({
    description: 'The new key to send in `X-API-Key`; it is not stored and cannot be shown again',
    example: 'psk_Q2m8vRt1…',
  })
  key!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the previous secret stops working (then 401 `API_KEY_EXPIRED`)',
    example: '2026-11-29T09:00:00.000Z',
  })
  previousKeyExpiresAt!: string;

  static from(rolled: { readonly key: ApiKey; readonly secret: string; readonly previousKeyExpiresAt: Date }) {
    return Object.assign(new RolledApiKeyResponse(), {
      id: rolled.key.id,
      key: rolled.secret,
      previousKeyExpiresAt: rolled.previousKeyExpiresAt.toISOString(),
    });
  }
}
