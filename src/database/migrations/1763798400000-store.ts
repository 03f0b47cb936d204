import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Inventory (one entry per pet), orders owned by API keys, and Idempotency-Key records. */
export class Store1763798400000 implements MigrationInterface {
  name = 'Store1763798400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "inventory" (
      "pet_id" bigint NOT NULL,
      "quantity" integer NOT NULL DEFAULT 0,
      CONSTRAINT "CHK_inventory_quantity" CHECK ("quantity" >= 0),
      CONSTRAINT "REL_inventory_pet" UNIQUE ("pet_id"),
      CONSTRAINT "PK_inventory" PRIMARY KEY ("pet_id"),
      CONSTRAINT "FK_inventory_pet" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    // Every existing pet gets its (empty) stock line.
    await db.query(`INSERT INTO "inventory" ("pet_id", "quantity") SELECT "id", 0 FROM "pets"`);
    await db.query(`CREATE TABLE "orders" (
      "id" BIGSERIAL NOT NULL,
      "pet_id" bigint NOT NULL,
      "quantity" integer NOT NULL,
      "ship_date" TIMESTAMP WITH TIME ZONE,
      "complete" boolean NOT NULL DEFAULT false,
      "owner_key_id" bigint NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "CHK_orders_quantity" CHECK ("quantity" BETWEEN 1 AND 1000),
      CONSTRAINT "PK_orders" PRIMARY KEY ("id"),
      CONSTRAINT "FK_orders_pet" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
      CONSTRAINT "FK_orders_owner_key" FOREIGN KEY ("owner_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
    await db.query(`CREATE INDEX "IDX_orders_pet_open" ON "orders" ("pet_id", "complete")`);
    await db.query(`CREATE INDEX "IDX_orders_owner" ON "orders" ("owner_key_id", "id")`);
    await db.query(`CREATE TABLE "idempotency_keys" (
      "api_key_id" bigint NOT NULL,
      "key" character varying(255) NOT NULL,
      "request_hash" character(64) NOT NULL,
      "outcome" jsonb,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("api_key_id", "key"),
      CONSTRAINT "FK_idempotency_keys_api_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await db.query(`CREATE INDEX "IDX_idempotency_keys_created_at" ON "idempotency_keys" ("created_at")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "idempotency_keys"`);
    await db.query(`DROP TABLE "orders"`);
    await db.query(`DROP TABLE "inventory"`);
  }
}
