import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** One API key's usage on one UTC day; rows are added to by every instance's flushes (upserts). */
@Entity({ name: 'api_key_usage' })
@Index('IDX_api_key_usage_day', ['day'])
export class KeyUsageOrmEntity {
  /** int8: a string from the driver. */
  @PrimaryColumn({ name: 'api_key_id', type: 'bigint', primaryKeyConstraintName: 'PK_api_key_usage' })
  apiKeyId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_api_key_usage_key' })
  apiKey?: unknown;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_api_key_usage' })
  day!: string;

  @Column({ type: 'bigint', default: 0 })
  requests!: string;

  @Column({ type: 'bigint', default: 0 })
  refused!: string;

  @Column({ type: 'integer', default: 0 })
  bans!: number;
}
