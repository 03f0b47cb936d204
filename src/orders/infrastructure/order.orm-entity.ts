import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'orders' })
@Check('CHK_orders_quantity', '"quantity" BETWEEN 1 AND 1000')
@Index('IDX_orders_pet_open', ['petId', 'complete'])
@Index('IDX_orders_owner', ['ownerKeyId', 'id'])
export class OrderOrmEntity {
  /** int8 columns are strings from the driver, converted by the mapper. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId!: string;

  // Referenced by name so this module does not import the pets module's entity.
  @ManyToOne('PetOrmEntity', { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_orders_pet' })
  pet?: unknown;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ name: 'ship_date', type: 'timestamptz', nullable: true })
  shipDate!: Date | null;

  @Column({ type: 'boolean', default: false })
  complete!: boolean;

  /** The API key that placed the order (not part of the Order schema). */
  @Column({ name: 'owner_key_id', type: 'bigint' })
  ownerKeyId!: string;

  @ManyToOne('ApiKeyOrmEntity', { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'owner_key_id', foreignKeyConstraintName: 'FK_orders_owner_key' })
  ownerKey?: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
