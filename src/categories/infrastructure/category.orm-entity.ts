import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'categories' })
// Case-insensitive uniqueness lives in a functional index the migration creates.
@Index('UQ_categories_name_lower', { synchronize: false })
export class CategoryOrmEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  /** int8: a string from the driver, converted by the mapper. */
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;
}
