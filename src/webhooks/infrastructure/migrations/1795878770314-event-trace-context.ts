import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the change that made an event (a W3C `traceparent`), for its
 * deliveries to link to and pass on (docs/operations.md, Tracing). Filled by the
 * column's default, whichever statement writes the row (the outbox's own insert, or
 * a use case's statement that publishes its events, such as `orders_place`): with
 * tracing on, every statement the service sends inside a trace ends with the
 * instrumentation's SQL comment `/*traceparent='00-…'*\/`, which `current_query()`
 * (the statement the client sent, also inside a function) holds. NULL otherwise.
 */
export class EventTraceContext1795878770314 implements MigrationInterface {
  name = 'EventTraceContext1795878770314';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "events" ADD "trace_parent" text
      DEFAULT substring(current_query() from '/\\*traceparent=''(00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2})''')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "events" DROP COLUMN "trace_parent"`);
  }
}
