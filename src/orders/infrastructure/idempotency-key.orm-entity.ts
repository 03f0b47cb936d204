import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** The first answer to a POST /store/orders under one Idempotency-Key of one API key. */
@Entity({ name: 'idempotency_keys' })
@Index('IDX_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyKeyOrmEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'bigint' })
  apiKeyId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_idempotency_keys_api_key' })
  apiKey?: unknown;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  /** SHA-256 of the canonical request body. */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash!: string;

  /** The outcome as JSON; null only while the first request is still running. */
  @Column({ type: 'jsonb', nullable: true })
  outcome!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
