import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type Scope, SCOPES } from '@petstore/auth';
import { PLAN_NAMES, type PlanName } from '../../../rate-limits/plan.js';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { IsStorableText } from '../../../shared/http/storable-text.decorator.js';
import { NestedObject } from '../../../shared/http/nested-object.decorator.js';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { KeyLimitsDto } from './key-limits.dto.js';

@ApiSchema({ name: 'NewApiKey', description: 'An API key to issue' })
export class NewApiKeyDto {
  @ApiProperty({ description: 'Who or what the key is for', minLength: 1, maxLength: 100, example: 'mobile app' })
  @IsString()
  @IsStorableText()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty({ description: 'Rate-limit plan', enum: PLAN_NAMES, enumName: 'Plan', example: 'free' })
  @IsIn(PLAN_NAMES)
  plan!: PlanName;

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
}
