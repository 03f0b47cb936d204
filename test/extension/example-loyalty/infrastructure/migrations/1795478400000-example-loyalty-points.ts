import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Points per API key; a key's points go when the key does. */
export class ExampleLoyaltyPoints1795478400000 implements MigrationInterface {
  name = 'ExampleLoyaltyPoints1795478400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "example_loyalty_points" (
      "api_key_id" bigint NOT NULL,
      "points" integer NOT NULL DEFAULT 0,
      CONSTRAINT "CHK_example_loyalty_points_points" CHECK ("points" >= 0),
      CONSTRAINT "REL_example_loyalty_points_api_key" UNIQUE ("api_key_id"),
      CONSTRAINT "PK_example_loyalty_points" PRIMARY KEY ("api_key_id"),
      CONSTRAINT "FK_example_loyalty_points_api_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "example_loyalty_points"`);
  }
}
