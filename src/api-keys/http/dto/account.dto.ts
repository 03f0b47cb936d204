import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { Account } from '../../domain/account.js';
import { PLAN_NAMES, type PlanName } from '../../../rate-limits/plan.js';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { NestedObject } from '../../../shared/http/nested-object.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { KeyLimitsDto } from './key-limits.dto.js';

const NAME_DOC = { description: 'Who the account is (a customer)', minLength: 1, maxLength: 100, example: 'Acme Ltd' };
const EXTERNAL_ID_DOC = {
  type: 'string',
  description: "The customer's id in your own systems; unique (409 `ACCOUNT_EXTERNAL_ID_TAKEN` on a duplicate)",
  minLength: 1,
  maxLength: 100,
  example: 'cus_4f2a91',
} as const;
const PLAN_DOC = {
  description:
    'Rate-limit plan of every key in the account (they share its windows); a key in it has no plan of its own',
  enum: PLAN_NAMES,
  enumName: 'Plan',
  example: 'pro',
};
const LIMITS_DOC = { type: KeyLimitsDto, description: 'Own quota; only (and required) for the enterprise plan' };

@ApiSchema({ name: 'NewAccount', description: 'An account to create: a customer whose keys share one quota' })
export class NewAccountDto {
  @ApiProperty(NAME_DOC)
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty(PLAN_DOC)
  @IsIn(PLAN_NAMES)
  plan!: PlanName;

  @ApiPropertyOptional(LIMITS_DOC)
  @OptionalButNotNull()
  @NestedObject(() => KeyLimitsDto)
  limits?: KeyLimitsDto;

  @ApiPropertyOptional(EXTERNAL_ID_DOC)
  @OptionalButNotNull()
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  externalId?: string;
}

@ApiSchema({ name: 'AccountUpdate', description: 'Changes to an account; absent fields keep their value' })
export class AccountUpdateDto {
  @ApiPropertyOptional(NAME_DOC)
  @OptionalButNotNull()
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({
    ...PLAN_DOC,
    description: `${PLAN_DOC.description}. Applies to its keys at once on this instance, within 10 s on others`,
  })
  @OptionalButNotNull()
  @IsIn(PLAN_NAMES)
  plan?: PlanName;

  @ApiPropertyOptional(LIMITS_DOC)
  @OptionalButNotNull()
  @NestedObject(() => KeyLimitsDto)
  limits?: KeyLimitsDto;

  @ApiPropertyOptional({
    ...EXTERNAL_ID_DOC,
    nullable: true,
    description: `${EXTERNAL_ID_DOC.description}; null removes it`,
  })
  @IsOptional()
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  externalId?: string | null;
}

@ApiSchema({ name: 'Account', description: 'A customer whose API keys share its plan, limits and rate-limit windows' })
export class AccountResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Account id', example: 3 })
  id!: number;

  @ApiProperty({ description: NAME_DOC.description, example: NAME_DOC.example })
  name!: string;

  @ApiProperty({ enum: PLAN_NAMES, enumName: 'Plan', description: 'Rate-limit plan of its keys', example: 'pro' })
  plan!: string;

  @ApiPropertyOptional({ type: KeyLimitsDto, description: 'Own quota (enterprise accounts)' })
  limits?: KeyLimitsDto;

  @ApiPropertyOptional({ description: "The customer's id in your own systems", example: EXTERNAL_ID_DOC.example })
  externalId?: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the account was created' })
  createdAt!: string;

  static from(this: void, account: Account): AccountResponse {
    const response = Object.assign(new AccountResponse(), {
      id: account.id,
      name: account.name,
      plan: account.plan,
      createdAt: account.createdAt.toISOString(),
    });
    if (account.limits) response.limits = { ...account.limits };
    if (account.externalId !== null) response.externalId = account.externalId;
    return response;
  }
}
