import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One recorded admin change (the audit log); written once, never updated, swept after the retention. */
@Entity({ name: 'audit_log' })
@Index('IDX_audit_log_at', ['at'])
@Index('IDX_audit_log_action', ['action', 'id'])
@Index('IDX_audit_log_target', ['targetType', 'targetId', 'id'])
@Index('IDX_audit_log_actor_key', ['actorKeyId', 'id'])
export class AuditEntryOrmEntity {
  /** int8: a string from the driver. */
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_audit_log' })
  id!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** `api_key`, `cli` or `system`. */
  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: string;

  /** The acting key's id (no foreign key: an entry outlives nothing it names). */
  @Column({ name: 'actor_key_id', type: 'bigint', nullable: true })
  actorKeyId!: string | null;

  @Column({ name: 'actor_address', type: 'varchar', length: 64, nullable: true })
  actorAddress!: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType!: string;

  @Column({ name: 'target_id', type: 'varchar', length: 128 })
  targetId!: string;

  /** `{field: [before, after]}`, allow-listed fields only. */
  @Column({ type: 'jsonb' })
  changes!: Record<string, unknown>;
}
