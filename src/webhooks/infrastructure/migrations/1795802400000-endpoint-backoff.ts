import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint-level backoff: after a failed attempt an endpoint is not tried again
 * before `backoff_until` (that delivery's next attempt); a 2xx clears it. Its
 * other deliveries wait parked, pending without a job (`job_id` NULL): the index
 * finds them when the endpoint answers again (after every success, so it must be
 * cheap when there are none).
 */
export class EndpointBackoff1795802400000 implements MigrationInterface {
  name = 'EndpointBackoff1795802400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "webhooks" ADD "backoff_until" TIMESTAMP WITH TIME ZONE`);
    await db.query(`CREATE INDEX "IDX_webhook_deliveries_parked" ON "webhook_deliveries" ("webhook_id", "id")
      WHERE "status" = 'pending' AND "job_id" IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Parked deliveries would have no job to send them: give up on them as failed, as a retry window's end does.
    await db.query(`UPDATE "webhook_deliveries" SET "status" = 'failed', "next_attempt_at" = NULL
      WHERE "status" = 'pending' AND "job_id" IS NULL`);
    await db.query(`DROP INDEX "IDX_webhook_deliveries_parked"`);
    await db.query(`ALTER TABLE "webhooks" DROP COLUMN "backoff_until"`);
  }
}
