import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { AccountOrmEntity } from './account.orm-entity.js';

@Entity({ name: 'api_keys' })
export class ApiKeyOrmEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  /** int8: a string from the driver, converted by the mapper. */
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  /** SHA-256 of the key, hex: the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash!: string;

  @Column({ type: 'varchar', length: 32 })
  plan!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ name: 'limit_per_minute', type: 'integer', nullable: true })
  limitPerMinute!: number | null;

  @Column({ name: 'limit_per_day', type: 'integer', nullable: true })
  limitPerDay!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'allowed_addresses', type: 'text', array: true, nullable: true })
  allowedAddresses!: string[] | null;

  /** Written by the usage flushes, never per request. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  /** The hash of the secret before the last roll: it works until `previousKeyExpiresAt`. */
  @Index('IDX_api_keys_previous_key_hash')
  @Column({ name: 'previous_key_hash', type: 'char', length: 64, nullable: true })
  previousKeyHash!: string | null;

  @Column({ name: 'previous_key_expires_at', type: 'timestamptz', nullable: true })
  previousKeyExpiresAt!: Date | null;

  @Column({ name: 'previous_key_last_used_at', type: 'timestamptz', nullable: true })
  previousKeyLastUsedAt!: Date | null;

  /** The account the key belongs to (its plan, limits and windows are the account's); null: none. */
  @Index('IDX_api_keys_account_id')
  @Column({ name: 'account_id', type: 'bigint', nullable: true })
  accountId!: string | null;

  @ManyToOne('AccountOrmEntity', { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_api_keys_account' })
  account?: AccountOrmEntity | null;
}
