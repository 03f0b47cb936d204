import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PET_STATUSES, type PetStatus } from '../domain/pet-status.js';

@Entity({ name: 'pets' })
@Index('IDX_pets_category_id', ['categoryId', 'id'])
@Index('IDX_pets_status', ['status', 'id'])
export class PetOrmEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  /** int8: a string from the driver, converted by the mapper. */
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId!: string;

  // Referenced by name so this module does not import the categories module's entity.
  @ManyToOne('CategoryOrmEntity', { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'category_id', foreignKeyConstraintName: 'FK_pets_category' })
  category?: unknown;

  @Column({ type: 'enum', enum: PET_STATUSES, enumName: 'pet_status', default: 'available' })
  status!: PetStatus;
}
