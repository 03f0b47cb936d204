import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity({ name: 'accounts' })
@Unique('UQ_accounts_external_id', ['externalId'])
export class AccountOrmEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_accounts' })
  /** int8: a string from the driver, converted by the mapper. */
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  plan!: string;

  @Column({ name: 'limit_per_minute', type: 'integer', nullable: true })
  limitPerMinute!: number | null;

  @Column({ name: 'limit_per_day', type: 'integer', nullable: true })
  limitPerDay!: number | null;

  /** The customer's id in the operator's own systems. */
  @Column({ name: 'external_id', type: 'varchar', length: 100, nullable: true })
  externalId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
