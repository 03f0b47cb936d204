import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Reviews of pets, and the purchases that make a review verified; both go with their pet or key. */
export class ExamplePetReviews1795564800000 implements MigrationInterface {
  name = 'ExamplePetReviews1795564800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "example_pet_reviews" (
      "id" BIGSERIAL NOT NULL,
      "pet_id" bigint NOT NULL,
      "author_key_id" bigint NOT NULL,
      "rating" smallint NOT NULL,
      "comment" character varying(500),
      "verified_purchase" boolean NOT NULL DEFAULT false,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "CHK_example_pet_reviews_rating" CHECK ("rating" BETWEEN 1 AND 5),
      CONSTRAINT "PK_example_pet_reviews" PRIMARY KEY ("id"),
      CONSTRAINT "FK_example_pet_reviews_pet" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_example_pet_reviews_author" FOREIGN KEY ("author_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE)`);
    await db.query(`CREATE INDEX "IDX_example_pet_reviews_pet_id" ON "example_pet_reviews" ("pet_id", "id")`);
    await db.query(`CREATE TABLE "example_pet_review_purchases" (
      "api_key_id" bigint NOT NULL,
      "pet_id" bigint NOT NULL,
      CONSTRAINT "PK_example_pet_review_purchases" PRIMARY KEY ("api_key_id", "pet_id"),
      CONSTRAINT "FK_example_pet_review_purchases_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_example_pet_review_purchases_pet" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "example_pet_review_purchases"`);
    await db.query(`DROP TABLE "example_pet_reviews"`);
  }
}
