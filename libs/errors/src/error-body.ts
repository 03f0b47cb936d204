import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The one shape of every failure the service answers with (API.md section 7). */
@ApiSchema({ name: 'Error', description: 'Every failure answers with this shape and only it.' })
export class ErrorBody {
  @ApiProperty({ description: 'Machine-readable error code', example: 'PET_NOT_FOUND' })
  code!: string;

  @ApiProperty({ description: 'Human-readable description of the error', example: 'Pet 42 does not exist' })
  message!: string;

  @ApiProperty({ description: 'The HTTP status code', type: 'integer', format: 'int32', example: 404 })
  status!: number;
}
