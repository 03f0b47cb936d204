import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts: keys that belong to one share its plan and windows. A key's account is set
 * to null when the account is deleted (only revoked keys can still name it then). Daily
 * usage rows record the account the key was in (0: none, as the column is part of the
 * primary key), without a foreign key: the history outlives a deleted account.
 */
export class Accounts1795867800000 implements MigrationInterface {
  name = 'Accounts1795867800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "accounts" (
      "id" BIGSERIAL NOT NULL,
      "name" character varying(100) NOT NULL,
      "plan" character varying(32) NOT NULL,
      "limit_per_minute" integer,
      "limit_per_day" integer,
      "external_id" character varying(100),
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "UQ_accounts_external_id" UNIQUE ("external_id"),
      CONSTRAINT "PK_accounts" PRIMARY KEY ("id"))`);
    await db.query(`ALTER TABLE "api_keys" ADD "account_id" bigint`);
    await db.query(`CREATE INDEX "IDX_api_keys_account_id" ON "api_keys" ("account_id")`);
    await db.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "FK_api_keys_account" FOREIGN KEY ("account_id")
      REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await db.query(`ALTER TABLE "api_key_usage" ADD "account_id" bigint NOT NULL DEFAULT 0`);
    await db.query(`ALTER TABLE "api_key_usage" DROP CONSTRAINT "PK_api_key_usage"`);
    await db.query(
      `ALTER TABLE "api_key_usage" ADD CONSTRAINT "PK_api_key_usage" PRIMARY KEY ("api_key_id", "day", "account_id")`,
    );
    await db.query(`CREATE INDEX "IDX_api_key_usage_account_day" ON "api_key_usage" ("account_id", "day")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX "IDX_api_key_usage_account_day"`);
    // Rows of one key and day in several accounts become one again.
    await db.query(`DELETE FROM "api_key_usage" u USING "api_key_usage" o
      WHERE u.api_key_id = o.api_key_id AND u.day = o.day AND u.account_id > o.account_id`);
    await db.query(`ALTER TABLE "api_key_usage" DROP CONSTRAINT "PK_api_key_usage"`);
    await db.query(`ALTER TABLE "api_key_usage" ADD CONSTRAINT "PK_api_key_usage" PRIMARY KEY ("api_key_id", "day")`);
    await db.query(`ALTER TABLE "api_key_usage" DROP COLUMN "account_id"`);
    await db.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_api_keys_account"`);
    await db.query(`DROP INDEX "IDX_api_keys_account_id"`);
    await db.query(`ALTER TABLE "api_keys" DROP COLUMN "account_id"`);
    await db.query(`DROP TABLE "accounts"`);
  }
}
