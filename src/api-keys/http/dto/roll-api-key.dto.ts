import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../../domain/api-key-lifecycle.js';

@ApiSchema({ name: 'ApiKeyRoll', description: 'How long the previous secret of a rolled key keeps working' })
export class RollApiKeyDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: DEFAULT_OVERLAP_SECONDS,
    description: 'Seconds the previous secret keeps working (0: it stops at once); at most 30 days',
    example: 3600,
  })
  @OptionalButNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_SECONDS)
  overlapSeconds?: number;
}
