import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's lifecycle: an expiry, address rules, when it was last used (written by the
 * usage flushes), and a roll's previous secret (its hash, the end of its overlap, its last use).
 */
export class ApiKeyLifecycle1795859934000 implements MigrationInterface {
  name = 'ApiKeyLifecycle1795859934000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "api_keys"
      ADD "expires_at" TIMESTAMP WITH TIME ZONE,
      ADD "allowed_addresses" text array,
      ADD "last_used_at" TIMESTAMP WITH TIME ZONE,
      ADD "previous_key_hash" character(64),
      ADD "previous_key_expires_at" TIMESTAMP WITH TIME ZONE,
      ADD "previous_key_last_used_at" TIMESTAMP WITH TIME ZONE`);
    await db.query(`CREATE INDEX "IDX_api_keys_previous_key_hash" ON "api_keys" ("previous_key_hash")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX "IDX_api_keys_previous_key_hash"`);
    await db.query(`ALTER TABLE "api_keys"
      DROP COLUMN "previous_key_last_used_at",
      DROP COLUMN "previous_key_expires_at",
      DROP COLUMN "previous_key_hash",
      DROP COLUMN "last_used_at",
      DROP COLUMN "allowed_addresses",
      DROP COLUMN "expires_at"`);
  }
}
