import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

/** The points of one API key. */
@Entity({ name: 'example_loyalty_points' })
@Check('CHK_example_loyalty_points_points', '"points" >= 0')
export class ExampleLoyaltyPointsOrmEntity {
  /** int8: a string from the driver. */
  @PrimaryColumn({ name: 'api_key_id', type: 'bigint' })
  apiKeyId!: string;

  // Referenced by name so this module does not import the api-keys module's entity.
  @OneToOne('ApiKeyOrmEntity', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_example_loyalty_points_api_key' })
  apiKey?: unknown;

  @Column({ type: 'integer', default: 0 })
  points!: number;
}
