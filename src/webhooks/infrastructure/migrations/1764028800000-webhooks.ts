import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox (`events`: ids in commit order, see docs/decisions/event-ids-in-commit-order.md),
 * webhook endpoints per API key, their deliveries, and the fan-out cursor.
 */
export class Webhooks1764028800000 implements MigrationInterface {
  name = 'Webhooks1764028800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "events" (
      "id" BIGSERIAL NOT NULL,
      "type" character varying(40) NOT NULL,
      "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "owner_key_id" bigint,
      "data" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_events" PRIMARY KEY ("id"))`);
    await db.query(`CREATE INDEX "IDX_events_created_at" ON "events" ("created_at")`);
    await db.query(`CREATE TABLE "webhooks" (
      "id" BIGSERIAL NOT NULL,
      "api_key_id" bigint NOT NULL,
      "url" character varying(2048) NOT NULL,
      "events" text array NOT NULL,
      "description" character varying(500),
      "secret_sealed" text NOT NULL,
      "enabled" boolean NOT NULL DEFAULT true,
      "failing_since" TIMESTAMP WITH TIME ZONE,
      "after_event_id" bigint NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_webhooks" PRIMARY KEY ("id"),
      CONSTRAINT "FK_webhooks_api_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE)`);
    await db.query(`CREATE INDEX "IDX_webhooks_api_key" ON "webhooks" ("api_key_id", "id")`);
    await db.query(`CREATE TABLE "webhook_deliveries" (
      "id" BIGSERIAL NOT NULL,
      "webhook_id" bigint NOT NULL,
      "event_id" bigint,
      "status" character varying(10) NOT NULL DEFAULT 'pending',
      "attempts" integer NOT NULL DEFAULT 0,
      "last_status_code" integer,
      "last_error" character varying(300),
      "last_duration_ms" integer,
      "next_attempt_at" TIMESTAMP WITH TIME ZONE,
      "first_due_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "delivered_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_webhook_deliveries_status" CHECK ("status" IN ('pending', 'delivered', 'failed')),
      CONSTRAINT "FK_webhook_deliveries_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_webhook_deliveries_event" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE)`);
    await db.query(`CREATE INDEX "IDX_webhook_deliveries_webhook" ON "webhook_deliveries" ("webhook_id", "id")`);
    await db.query(`CREATE INDEX "IDX_webhook_deliveries_event" ON "webhook_deliveries" ("event_id")`);
    await db.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    // One row: the last event whose deliveries exist (re-created at 0 by the fan-out if emptied).
    await db.query(`CREATE TABLE "webhook_fanout" (
      "id" smallint NOT NULL,
      "last_event_id" bigint NOT NULL,
      CONSTRAINT "PK_webhook_fanout" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_webhook_fanout_single" CHECK ("id" = 1))`);
    await db.query(`INSERT INTO "webhook_fanout" ("id", "last_event_id") VALUES (1, 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "webhook_fanout"`);
    await db.query(`DROP TABLE "webhook_deliveries"`);
    await db.query(`DROP TABLE "webhooks"`);
    await db.query(`DROP TABLE "events"`);
  }
}
