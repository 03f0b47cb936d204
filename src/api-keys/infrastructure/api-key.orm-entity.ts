import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

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
}
