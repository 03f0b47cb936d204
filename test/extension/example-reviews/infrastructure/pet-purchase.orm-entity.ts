import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** That a key has had an order of a pet completed: what makes its reviews of that pet verified. */
@Entity({ name: 'example_pet_review_purchases' })
export class ExamplePetPurchaseOrmEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'bigint' })
  apiKeyId!: string;

  @PrimaryColumn({ name: 'pet_id', type: 'bigint' })
  petId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_example_pet_review_purchases_key' })
  apiKey?: unknown;

  @ManyToOne('PetOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_example_pet_review_purchases_pet' })
  pet?: unknown;
}
