import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries as pg-boss jobs: each pending delivery names the job that will send
 * it next (`job_id`, so that cancelling the delivery cancels that job and a stale
 * job is recognised) and, while it is being sent, until when it holds one of its
 * endpoint's sending slots (`sending_until`); `cancelled` joins the statuses; an
 * endpoint says why it was disabled. The pg-boss tables live in their own schema,
 * created by pg-boss.
 */
export class DeliveryJobs1795780800000 implements MigrationInterface {
  name = 'DeliveryJobs1795780800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "webhook_deliveries" ADD "job_id" uuid`);
    await db.query(`ALTER TABLE "webhook_deliveries" ADD "sending_until" TIMESTAMP WITH TIME ZONE`);
    await db.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "CHK_webhook_deliveries_status"`);
    await db.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "CHK_webhook_deliveries_status"
      CHECK ("status" IN ('pending', 'delivered', 'failed', 'cancelled'))`);
    await db.query(`DROP INDEX "IDX_webhook_deliveries_due"`);
    await db.query(
      `CREATE INDEX "IDX_webhook_deliveries_pending" ON "webhook_deliveries" ("webhook_id") WHERE "status" = 'pending'`,
    );
    await db.query(`ALTER TABLE "webhooks" ADD "disabled_reason" character varying(200)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "webhooks" DROP COLUMN "disabled_reason"`);
    await db.query(`DROP INDEX "IDX_webhook_deliveries_pending"`);
    await db.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await db.query(`UPDATE "webhook_deliveries" SET "status" = 'failed' WHERE "status" = 'cancelled'`);
    await db.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "CHK_webhook_deliveries_status"`);
    await db.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "CHK_webhook_deliveries_status"
      CHECK ("status" IN ('pending', 'delivered', 'failed'))`);
    await db.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "sending_until"`);
    await db.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "job_id"`);
  }
}
