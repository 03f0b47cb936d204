import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The secret a rotation replaced, which still signs deliveries until it expires (docs/webhooks.md). */
export class WebhookSecretRotation1795759200000 implements MigrationInterface {
  name = 'WebhookSecretRotation1795759200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "webhooks"
      ADD "previous_secret_sealed" text,
      ADD "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
      ADD CONSTRAINT "CHK_webhooks_previous_secret"
        CHECK (("previous_secret_sealed" IS NULL) = ("previous_secret_expires_at" IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "webhooks"
      DROP CONSTRAINT "CHK_webhooks_previous_secret",
      DROP COLUMN "previous_secret_expires_at",
      DROP COLUMN "previous_secret_sealed"`);
  }
}
