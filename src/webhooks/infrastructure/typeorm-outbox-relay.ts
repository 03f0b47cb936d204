import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { fromInt8 } from '../../database/index.js';
import type { OutboxRelay } from '../domain/dispatch.js';
import { PgBossDeliveryQueue } from './pg-boss-delivery-queue.js';
import { cancelPending } from './typeorm-deliveries.js';

/** Each new event, for each enabled endpoint of a live key that subscribed to its type and may see it. */
const RELAY = `INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, first_due_at, job_id)
  SELECT w.id, e.id, now(), now(), gen_random_uuid()
  FROM events e
  JOIN webhooks w ON w.enabled AND e.type = ANY(w.events) AND e.id > w.after_event_id
  JOIN api_keys k ON k.id = w.api_key_id AND k.revoked_at IS NULL
  WHERE e.id > $1 AND e.id <= $2
    AND (e.owner_key_id IS NULL OR e.owner_key_id = w.api_key_id OR 'admin' = ANY(k.scopes))
  ORDER BY e.id, w.id
  RETURNING id, webhook_id, job_id`;

/** Endpoints that get nothing more: disabled (by their owner, a 410, or failing too long), or their key revoked. */
const STOPPED_ENDPOINTS = `d.webhook_id IN (SELECT w.id FROM webhooks w JOIN api_keys k ON k.id = w.api_key_id
  WHERE NOT w.enabled OR k.revoked_at IS NOT NULL)`;

/**
 * The outbox relay over the `events` table: the deliveries and their jobs of new
 * events, in one transaction, by one instance at a time (the cursor row is its lock).
 */
@Injectable()
export class TypeOrmOutboxRelay implements OutboxRelay {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queue: PgBossDeliveryQueue,
  ) {}

  async relay(limit: number): Promise<number> {
    await this.queue.ready();
    return this.db.transaction(async (m) => {
      const after = await this.lockCursor(m);
      if (after === null) return 0; // another instance is relaying
      await cancelPending(m, this.queue, STOPPED_ENDPOINTS, []);
      const [batch] = await m.query<Array<{ upto: string | null; n: string }>>(
        `SELECT max(id) AS upto, count(*) AS n FROM (SELECT id FROM events WHERE id > $1 ORDER BY id LIMIT $2) b`,
        [after, limit],
      );
      if (batch.upto === null) return 0;
      const upto = fromInt8(batch.upto);
      const rows = await m.query<Array<{ id: string; webhook_id: string; job_id: string }>>(RELAY, [after, upto]);
      const jobs = rows
        .map((r) => ({ jobId: r.job_id, deliveryId: fromInt8(r.id), webhookId: fromInt8(r.webhook_id) }))
        .sort((x, y) => x.deliveryId - y.deliveryId);
      await this.queue.add(jobs, m);
      await m.query(`UPDATE webhook_fanout SET last_event_id = $1 WHERE id = 1`, [upto]);
      return Number(batch.n);
    });
  }

  /** The relay cursor, locked until the transaction ends; null when another instance holds it. */
  private async lockCursor(m: EntityManager): Promise<number | null> {
    const lock = `SELECT last_event_id FROM webhook_fanout WHERE id = 1 FOR UPDATE SKIP LOCKED`;
    let [cursor] = await m.query<Array<{ last_event_id: string }>>(lock);
    if (!cursor) {
      // Either another instance holds it or the row is gone (tests empty every table): re-create it at 0.
      await m.query(`INSERT INTO webhook_fanout (id, last_event_id) VALUES (1, 0) ON CONFLICT DO NOTHING`);
      [cursor] = await m.query<Array<{ last_event_id: string }>>(lock);
    }
    return cursor ? fromInt8(cursor.last_event_id) : null;
  }
}
