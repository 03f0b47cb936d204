import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type Scope, SCOPES } from '@petstore/auth';
import { PLAN_NAMES, type PlanName } from '../../../rate-limits/plan.js';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { MAX_ADDRESS_RULES } from '@petstore/auth';
import { NestedObject } from '../../../shared/http/nested-object.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { KeyLimitsDto } from './key-limits.dto.js';
import { ACCOUNT_ID_DOC, ALLOWED_ADDRESSES_DOC, EXPIRES_AT_DOC } from './new-api-key.dto.js';

@ApiSchema({ name: 'ApiKeyUpdate', description: 'Changes to an API key; absent fields keep their value' })
export class ApiKeyUpdateDto {
  @ApiPropertyOptional({
    description: 'Rate-limit plan; refused (422) for a key that is, or goes, in an account',
    enum: PLAN_NAMES,
    enumName: 'Plan',
  })
  @OptionalButNotNull()
  @IsIn(PLAN_NAMES)
  plan?: PlanName;

  @ApiPropertyOptional({
    description: 'What the key may do',
    type: 'array',
    items: { type: 'string', enum: [...SCOPES] },
    minItems: 1,
    maxItems: 3,
  })
  @OptionalButNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes?: Scope[];

  @ApiPropertyOptional({ type: KeyLimitsDto, description: 'Own quota; only for the enterprise plan' })
  @OptionalButNotNull()
  @NestedObject(() => KeyLimitsDto)
  limits?: KeyLimitsDto;

  @ApiPropertyOptional({ ...EXPIRES_AT_DOC, nullable: true, description: `${EXPIRES_AT_DOC.description}; null: never` })
  @IsOptional()
  @IsDateString({ strict: true, strictSeparator: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({
    ...ALLOWED_ADDRESSES_DOC,
    nullable: true,
    description: `${ALLOWED_ADDRESSES_DOC.description}; null: any address again`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ADDRESS_RULES)
  @IsString({ each: true })
  @MaxLength(49, { each: true })
  allowedAddresses?: string[] | null;

  @ApiPropertyOptional({
    ...ACCOUNT_ID_DOC,
    nullable: true,
    description:
      `${ACCOUNT_ID_DOC.description}. null takes the key out of its account: it is counted alone again, keeping ` +
      "the account's plan and limits unless `plan` (and `limits`) are given. Applies at once on this instance, " +
      'within 10 s on others',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  accountId?: number | null;
}
