import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

/** Stock of one pet; its status is the pet's own (`pets.status`), never copied. */
@Entity({ name: 'inventory' })
@Check('CHK_inventory_quantity', '"quantity" >= 0')
export class InventoryOrmEntity {
  /** int8: a string from the driver, converted by the mapper. */
  @PrimaryColumn({ name: 'pet_id', type: 'bigint' })
  petId!: string;

  // Referenced by name so this module does not import the pets module's entity.
  @OneToOne('PetOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_inventory_pet' })
  pet?: unknown;

  @Column({ type: 'integer', default: 0 })
  quantity!: number;
}
