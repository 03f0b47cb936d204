import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type ApiKey, SCOPES } from '@petstore/auth';
import { PLAN_NAMES } from '../../../rate-limits/plan.js';
import { KeyLimitsDto } from './key-limits.dto.js';

@ApiSchema({ name: 'ApiKey', description: 'An issued API key (never the key itself)' })
export class ApiKeyResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Key id' })
  id!: number;

  @ApiProperty({ description: 'Who or what the key is for' })
  name!: string;

  @ApiProperty({ description: 'The first characters of the key, to recognise it', example: 'psk_Xk3f9aQe' })
  prefix!: string;

  @ApiProperty({ enum: PLAN_NAMES, enumName: 'Plan', description: 'Rate-limit plan' })
  plan!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...SCOPES] }, description: 'What the key may do' })
  scopes!: string[];

  @ApiPropertyOptional({ type: KeyLimitsDto, description: 'Own quota (enterprise keys)' })
  limits?: KeyLimitsDto;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the key was issued' })
  createdAt!: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'When the key was revoked' })
  revokedAt?: string;

  static from(this: void, key: ApiKey): ApiKeyResponse {
    const response = Object.assign(new ApiKeyResponse(), {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      plan: key.plan,
      scopes: [...key.scopes],
      createdAt: key.createdAt.toISOString(),
    });
    if (key.limits) response.limits = { ...key.limits };
    if (key.revokedAt) response.revokedAt = key.revokedAt.toISOString();
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
