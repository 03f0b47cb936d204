import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { AuditEntry, AuditValue } from '../../domain/audit-entry.js';

const ACTOR_TYPES = ['api_key', 'cli', 'system'] as const;

@ApiSchema({ name: 'AuditActor', description: 'Who made a change' })
export class AuditActorResponse {
  @ApiProperty({
    enum: ACTOR_TYPES,
    description: 'An admin API key, the keys command line (`npm run keys`), or the service itself',
  })
  type!: (typeof ACTOR_TYPES)[number];

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The API key (actor `api_key`)', example: 1 })
  id?: number;

  @ApiPropertyOptional({ description: 'The client address of the request (actor `api_key`)', example: '203.0.113.7' })
  address?: string;
}

@ApiSchema({ name: 'AuditTarget', description: 'What a change was made to' })
export class AuditTargetResponse {
  @ApiProperty({ description: '`api_key`, `address`, `plan_table`, …', example: 'api_key' })
  type!: string;

  @ApiProperty({
    description: "The target's id: a key's id, an address, a hash of a plan table's content",
    example: '7',
  })
  id!: string;
}

@ApiSchema({ name: 'AuditEntry', description: 'A change an admin (or the service) made, as the audit log keeps it' })
export class AuditEntryResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Entry id' })
  id!: number;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the change was made' })
  at!: string;

  @ApiProperty({ type: AuditActorResponse })
  actor!: AuditActorResponse;

  @ApiPropertyOptional({ description: "The request's `X-Request-Id` (changes made over HTTP)" })
  requestId?: string;

  @ApiProperty({ description: 'What was done, `<target type>.<verb>`', example: 'api_key.updated' })
  action!: string;

  @ApiProperty({ type: AuditTargetResponse })
  target!: AuditTargetResponse;

  @ApiProperty({
    type: 'object',
    description:
      'Each changed field as `[before, after]` (null: none). Only fields meant to be shown: never a secret or a hash',
    additionalProperties: { type: 'array', minItems: 2, maxItems: 2, items: {} },
    example: { plan: ['free', 'pro'], expiresAt: [null, '2027-06-30T00:00:00.000Z'] },
  })
  changes!: Record<string, [AuditValue, AuditValue]>;

  static from(entry: AuditEntry): AuditEntryResponse {
    const { actor } = entry;
    return {
      id: entry.id,
      at: entry.at.toISOString(),
      actor:
        actor.type === 'api_key'
          ? { type: actor.type, id: actor.id, ...(actor.address === undefined ? {} : { address: actor.address }) }
          : { type: actor.type },
      ...(entry.requestId === undefined ? {} : { requestId: entry.requestId }),
      action: entry.action,
      target: { type: entry.target.type, id: entry.target.id },
      changes: entry.changes as Record<string, [AuditValue, AuditValue]>,
    };
  }
}
