import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Daily usage per API key (requests, 429s, bans), kept for the retention period and swept by day. */
export class ApiKeyUsage1795219200000 implements MigrationInterface {
  name = 'ApiKeyUsage1795219200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "api_key_usage" (
      "api_key_id" bigint NOT NULL,
      "day" date NOT NULL,
      "requests" bigint NOT NULL DEFAULT 0,
      "refused" bigint NOT NULL DEFAULT 0,
      "bans" integer NOT NULL DEFAULT 0,
      CONSTRAINT "PK_api_key_usage" PRIMARY KEY ("api_key_id", "day"),
      CONSTRAINT "FK_api_key_usage_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await db.query(`CREATE INDEX "IDX_api_key_usage_day" ON "api_key_usage" ("day")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "api_key_usage"`);
  }
}
