import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * One API key's usage on one UTC day in one account (the one it was in when the requests
 * were made); rows are added to by every instance's flushes (upserts).
 */
@Entity({ name: 'api_key_usage' })
@Index('IDX_api_key_usage_day', ['day'])
@Index('IDX_api_key_usage_account_day', ['accountId', 'day'])
export class KeyUsageOrmEntity {
  /** int8: a string from the driver. */
  @PrimaryColumn({ name: 'api_key_id', type: 'bigint', primaryKeyConstraintName: 'PK_api_key_usage' })
  apiKeyId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_api_key_usage_key' })
  apiKey?: unknown;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_api_key_usage' })
  day!: string;

  /**
   * The account the key was in, 0 for none (a primary key column admits no NULL). No foreign
   * key: the history of a deleted account stays. The mappers turn 0 into null.
   */
  @PrimaryColumn({ name: 'account_id', type: 'bigint', default: 0, primaryKeyConstraintName: 'PK_api_key_usage' })
  accountId!: string;

  @Column({ type: 'bigint', default: 0 })
  requests!: string;

  @Column({ type: 'bigint', default: 0 })
  refused!: string;

  @Column({ type: 'integer', default: 0 })
  bans!: number;
}
