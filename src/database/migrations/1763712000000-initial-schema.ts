import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763712000000 implements MigrationInterface {
  name = 'InitialSchema1763712000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "categories" (
      "id" BIGSERIAL NOT NULL,
      "name" character varying(100) NOT NULL,
      "description" character varying(500),
      CONSTRAINT "PK_categories" PRIMARY KEY ("id"))`);
    await db.query(`CREATE UNIQUE INDEX "UQ_categories_name_lower" ON "categories" (lower("name"))`);
    await db.query(`CREATE TYPE "public"."pet_status" AS ENUM('available', 'pending', 'sold')`);
    await db.query(`CREATE TABLE "pets" (
      "id" BIGSERIAL NOT NULL,
      "name" character varying(100) NOT NULL,
      "category_id" bigint NOT NULL,
      "status" "public"."pet_status" NOT NULL DEFAULT 'available',
      CONSTRAINT "PK_pets" PRIMARY KEY ("id"),
      CONSTRAINT "FK_pets_category" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
    await db.query(`CREATE INDEX "IDX_pets_category_id" ON "pets" ("category_id", "id")`);
    await db.query(`CREATE INDEX "IDX_pets_status" ON "pets" ("status", "id")`);
    await db.query(`CREATE TABLE "api_keys" (
      "id" BIGSERIAL NOT NULL,
      "name" character varying(100) NOT NULL,
      "prefix" character varying(16) NOT NULL,
      "key_hash" character(64) NOT NULL,
      "plan" character varying(32) NOT NULL,
      "scopes" text array NOT NULL,
      "limit_per_minute" integer,
      "limit_per_day" integer,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "revoked_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "UQ_api_keys_key_hash" UNIQUE ("key_hash"),
      CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "api_keys"`);
    await db.query(`DROP TABLE "pets"`);
    await db.query(`DROP TYPE "public"."pet_status"`);
    await db.query(`DROP TABLE "categories"`);
  }
}
