import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit log of admin changes, with an index per filter of GET /admin/audit-log (newest first) and one for the sweep. */
export class AuditLog1795867574621 implements MigrationInterface {
  name = 'AuditLog1795867574621';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "audit_log" (
      "id" BIGSERIAL NOT NULL,
      "at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "actor_type" character varying(16) NOT NULL,
      "actor_key_id" bigint,
      "actor_address" character varying(64),
      "request_id" character varying(128),
      "action" character varying(64) NOT NULL,
      "target_type" character varying(32) NOT NULL,
      "target_id" character varying(128) NOT NULL,
      "changes" jsonb NOT NULL,
      CONSTRAINT "PK_audit_log" PRIMARY KEY ("id"))`);
    await db.query(`CREATE INDEX "IDX_audit_log_at" ON "audit_log" ("at")`);
    await db.query(`CREATE INDEX "IDX_audit_log_action" ON "audit_log" ("action", "id")`);
    await db.query(`CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id", "id")`);
    await db.query(`CREATE INDEX "IDX_audit_log_actor_key" ON "audit_log" ("actor_key_id", "id")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "audit_log"`);
  }
}
