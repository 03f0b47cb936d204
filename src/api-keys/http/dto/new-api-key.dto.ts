import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type Scope, SCOPES } from '@petstore/auth';
import { PLAN_NAMES, type PlanName } from '../../../rate-limits/plan.js';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { MAX_ADDRESS_RULES } from '@petstore/auth';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { NestedObject } from '../../../shared/http/nested-object.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { BETA_FIELD } from '../../../shared/http/api-docs.js';
import { KeyLimitsDto } from './key-limits.dto.js';

/** Documentation shared by creation and update (beta fields of issue 42). */
export const ACCOUNT_ID_DOC = {
  ...BETA_FIELD,
  type: 'integer',
  format: 'int64',
  minimum: 1,
  description:
    "The account the key belongs to: it then has the account's plan and limits (setting `plan` or `limits` on it " +
    "is refused with 422 `API_KEY_PLAN_FROM_ACCOUNT`) and shares the account's rate-limit windows with its other " +
    'keys. 422 `ACCOUNT_NOT_FOUND` when there is no such account',
  example: 3,
} as const;

export const EXPIRES_AT_DOC = {
  ...BETA_FIELD,
  type: 'string',
  format: 'date-time',
  description: 'When the key stops working (401 `API_KEY_EXPIRED` after it); in the future.',
  example: '2027-06-30T00:00:00Z',
} as const;

export const ALLOWED_ADDRESSES_DOC = {
  ...BETA_FIELD,
  type: 'array',
  items: { type: 'string', maxLength: 49 },
  minItems: 1,
  maxItems: MAX_ADDRESS_RULES,
  description:
    'IPv4/IPv6 addresses or CIDR ranges the key may be used from (the client address as `TRUST_PROXY` resolves ' +
    'it); from elsewhere it answers 403 `API_KEY_ADDRESS_NOT_ALLOWED`. Absent: any address',
  example: ['203.0.113.0/24', '2001:db8:1::/48'],
} as const;

@ApiSchema({ name: 'NewApiKey', description: 'An API key to issue' })
export class NewApiKeyDto {
  @ApiProperty({ description: 'Who or what the key is for', minLength: 1, maxLength: 100, example: 'mobile app' })
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({
    description: 'Rate-limit plan; required unless `accountId` is given (a key in an account has the account’s)',
    enum: PLAN_NAMES,
    enumName: 'Plan',
    example: 'free',
  })
  // Absent with an account (the service refuses it there, 422); else required, and one of the plans.
  @ValidateIf((body: NewApiKeyDto) => body.accountId === undefined || body.plan !== undefined)
  @IsIn(PLAN_NAMES)
  plan?: PlanName;

  @ApiProperty({
    description: 'What the key may do',
    type: 'array',
    items: { type: 'string', enum: [...SCOPES] },
    minItems: 1,
    maxItems: 3,
    example: ['read'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes!: Scope[];

  @ApiPropertyOptional({ type: KeyLimitsDto, description: 'Own quota; only (and required) for the enterprise plan' })
  @OptionalButNotNull()
  @NestedObject(() => KeyLimitsDto)
  limits?: KeyLimitsDto;

  @ApiPropertyOptional(EXPIRES_AT_DOC)
  @OptionalButNotNull()
  @IsDateString({ strict: true, strictSeparator: true })
  expiresAt?: string;

  @ApiPropertyOptional(ALLOWED_ADDRESSES_DOC)
  @OptionalButNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ADDRESS_RULES)
  @IsString({ each: true })
  @MaxLength(49, { each: true })
  allowedAddresses?: string[];

  @ApiPropertyOptional(ACCOUNT_ID_DOC)
  @OptionalButNotNull()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  accountId?: number;
}
