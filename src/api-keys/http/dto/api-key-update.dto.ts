import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type Scope, SCOPES } from '@petstore/auth';
import { PLAN_NAMES, type PlanName } from '../../../rate-limits/plan.js';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn } from 'class-validator';
import { NestedObject } from '../../../shared/http/nested-object.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { KeyLimitsDto } from './key-limits.dto.js';

@ApiSchema({ name: 'ApiKeyUpdate', description: 'Changes to an API key; absent fields keep their value' })
export class ApiKeyUpdateDto {
  @ApiPropertyOptional({ description: 'Rate-limit plan', enum: PLAN_NAMES, enumName: 'Plan' })
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
}
