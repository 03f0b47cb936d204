import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { fromInt8 } from '../../database/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { DeliveryRepository } from '../domain/ports.js';
import type { Delivery, DeliveryStatus } from '../domain/webhook.js';
import { PgBossDeliveryQueue } from './pg-boss-delivery-queue.js';

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string | null;
  event_type: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

const SELECT_DELIVERY = `SELECT d.id, d.webhook_id, d.event_id, e.type AS event_type, d.status, d.attempts,
  d.last_status_code, d.last_error, d.last_duration_ms, d.next_attempt_at, d.created_at, d.delivered_at
  FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id`;

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: fromInt8(row.id),
  webhookId: fromInt8(row.webhook_id),
  eventId: row.event_id === null ? null : fromInt8(row.event_id),
  eventType: row.event_type ?? 'ping',
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastDurationMs: row.last_duration_ms,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
});

/**
 * Marks the pending deliveries `where` selects (an SQL condition on `d`) as
 * cancelled and cancels their jobs, in the transaction of `m`. Returns how many.
 */
export async function cancelPending(
  m: EntityManager,
  queue: PgBossDeliveryQueue,
  where: string,
  params: unknown[],
): Promise<number> {
  const [rows] = await m.query<[Array<{ job_id: string | null }>, number]>(
    `UPDATE webhook_deliveries d SET status = 'cancelled', next_attempt_at = NULL
     WHERE d.status = 'pending' AND ${where} RETURNING d.job_id`,
    params,
  );
  await queue.cancel(
    rows.flatMap((r) => (r.job_id ? [r.job_id] : [])),
    m,
  );
  return rows.length;
}

/** Deliveries as the endpoints' owners see and steer them; each change comes with its job, in one transaction. */
@Injectable()
export class TypeOrmDeliveryRepository implements DeliveryRepository {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queue: PgBossDeliveryQueue,
  ) {}

  async list(webhookId: number, page: PageRequest): Promise<Page<Delivery>> {
    const rows = await this.db.query<DeliveryRow[]>(
      `${SELECT_DELIVERY} WHERE d.webhook_id = $1 AND d.id > $2 ORDER BY d.id LIMIT $3`,
      [webhookId, page.afterId ?? 0, page.limit + 1],
    );
    return toPage(rows.map(toDelivery), page.limit);
  }

  async enqueuePing(webhookId: number): Promise<Delivery> {
    await this.queue.ready(); // before the transaction: a first start of pg-boss does not run inside it
    const jobId = randomUUID();
    return this.db.transaction(async (m) => {
      const [row] = await m.query<DeliveryRow[]>(
        `INSERT INTO webhook_deliveries (webhook_id, next_attempt_at, job_id) VALUES ($1, now(), $2)
         RETURNING id, webhook_id, event_id, NULL AS event_type, status, attempts, last_status_code, last_error,
                   last_duration_ms, next_attempt_at, created_at, delivered_at`,
        [webhookId, jobId],
      );
      await this.queue.add([{ jobId, deliveryId: fromInt8(row.id), webhookId, askedByOwner: true }], m);
      return toDelivery(row);
    });
  }

  async retry(webhookId: number, deliveryId: number): Promise<Delivery | null> {
    await this.queue.ready();
    return this.db.transaction(async (m) => {
      const [current] = await m.query<Array<{ status: DeliveryStatus; job_id: string | null }>>(
        `SELECT status, job_id FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 FOR UPDATE`,
        [deliveryId, webhookId],
      );
      if (!current) return null;
      // A fresh retry window, due now: the job waiting for a later attempt (if any) gives way to a new one.
      if (current.status === 'pending' && current.job_id) await this.queue.cancel([current.job_id], m);
      const jobId = randomUUID();
      await m.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), first_due_at = now(), job_id = $2
         WHERE id = $1`,
        [deliveryId, jobId],
      );
      // Asked by the owner: it goes at once even while the endpoint backs off (how the owner checks it works again).
      await this.queue.add([{ jobId, deliveryId, webhookId, askedByOwner: true }], m);
      const [row] = await m.query<DeliveryRow[]>(`${SELECT_DELIVERY} WHERE d.id = $1`, [deliveryId]);
      return toDelivery(row);
    });
  }

  async cancelAll(webhookId: number): Promise<void> {
    await this.queue.ready();
    await this.db.transaction((m) => cancelPending(m, this.queue, 'd.webhook_id = $1', [webhookId]));
  }
}
