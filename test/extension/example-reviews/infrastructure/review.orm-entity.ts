import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'example_pet_reviews' })
@Check('CHK_example_pet_reviews_rating', '"rating" BETWEEN 1 AND 5')
@Index('IDX_example_pet_reviews_pet_id', ['petId', 'id'])
export class ExampleReviewOrmEntity {
  /** int8: a string from the driver. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId!: string;

  // Referenced by name so this module imports nothing of the pets module; a pet's reviews go with it.
  @ManyToOne('PetOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_example_pet_reviews_pet' })
  pet?: unknown;

  @Column({ name: 'author_key_id', type: 'bigint' })
  authorKeyId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'author_key_id', foreignKeyConstraintName: 'FK_example_pet_reviews_author' })
  author?: unknown;

  @Column({ type: 'smallint' })
  rating!: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  comment!: string | null;

  @Column({ name: 'verified_purchase', type: 'boolean', default: false })
  verifiedPurchase!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
