import type { EntityManager } from 'typeorm';
import { fromInt8 } from '../../database/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { ClaimedDelivery, DeliveryOutcome, DeliveryQueue } from '../domain/dispatch.js';
import { eventMessage, pingMessage } from '../domain/message.js';
import type { DeliveryRepository } from '../domain/ports.js';
import type { StoreEventData, StoreEventType } from '../domain/store-event.js';
import type { Delivery, DeliveryStatus } from '../domain/webhook.js';
import { SECRET_COLUMNS, type SecretColumns, signingSecretsOf } from './typeorm-webhook.repository.js';

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

/** Deliveries as the endpoints' owners see and steer them. */
export class TypeOrmDeliveryRepository implements DeliveryRepository {
  constructor(private readonly db: EntityManager) {}

  async list(webhookId: number, page: PageRequest): Promise<Page<Delivery>> {
    const rows = (await this.db.query(
      `${SELECT_DELIVERY} WHERE d.webhook_id = $1 AND d.id > $2 ORDER BY d.id LIMIT $3`,
      [webhookId, page.afterId ?? 0, page.limit + 1],
    )) as DeliveryRow[];
    return toPage(rows.map(toDelivery), page.limit);
  }

  async enqueuePing(webhookId: number): Promise<Delivery> {
    const [row] = (await this.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, next_attempt_at) VALUES ($1, now())
       RETURNING id, webhook_id, event_id, NULL AS event_type, status, attempts, last_status_code, last_error,
                 last_duration_ms, next_attempt_at, created_at, delivered_at`,
      [webhookId],
    )) as DeliveryRow[];
    return toDelivery(row);
  }

  async retry(webhookId: number, deliveryId: number): Promise<Delivery | null> {
    const [rows] = (await this.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), first_due_at = now()
       WHERE id = $1 AND webhook_id = $2 RETURNING id`,
      [deliveryId, webhookId],
    )) as [unknown[], number];
    if (rows.length === 0) return null;
    const [row] = (await this.db.query(`${SELECT_DELIVERY} WHERE d.id = $1`, [deliveryId])) as DeliveryRow[];
    return row ? toDelivery(row) : null;
  }
}

interface ClaimRow extends SecretColumns {
  id: string;
  webhook_id: string;
  url: string;
  attempts: number;
  elapsed_ms: string;
  created_at: Date;
  event_id: string | null;
  type: StoreEventType | null;
  occurred_at: Date | null;
  data: StoreEventData | null;
}

const FAN_OUT = `INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, first_due_at)
  SELECT w.id, e.id, now(), now()
  FROM events e
  JOIN webhooks w ON w.enabled AND e.type = ANY(w.events) AND e.id > w.after_event_id
  JOIN api_keys k ON k.id = w.api_key_id AND k.revoked_at IS NULL
  WHERE e.id > $1 AND e.id <= $2
    AND (e.owner_key_id IS NULL OR e.owner_key_id = w.api_key_id OR 'admin' = ANY(k.scopes))
  ORDER BY e.id, w.id`;

const CLAIM = `SELECT d.id, d.webhook_id, w.url, ${SECRET_COLUMNS}, d.attempts, d.created_at,
    (EXTRACT(EPOCH FROM now() - d.first_due_at) * 1000)::bigint AS elapsed_ms,
    e.id AS event_id, e.type, e.occurred_at, e.data
  FROM webhook_deliveries d
  JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
  LEFT JOIN events e ON e.id = d.event_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= now()
  ORDER BY d.next_attempt_at, d.id
  LIMIT $1
  FOR UPDATE OF d SKIP LOCKED`;

/** The outcomes of a batch, in one statement. */
const RECORD = `UPDATE webhook_deliveries d SET
    attempts = d.attempts + 1,
    status = CASE WHEN o.ok THEN 'delivered' WHEN o.retry_ms IS NULL THEN 'failed' ELSE 'pending' END,
    last_status_code = o.status_code,
    last_error = o.error,
    last_duration_ms = o.duration_ms,
    delivered_at = CASE WHEN o.ok THEN now() ELSE d.delivered_at END,
    next_attempt_at = CASE WHEN o.ok OR o.retry_ms IS NULL THEN NULL ELSE now() + o.retry_ms * interval '1 millisecond' END
  FROM unnest($1::bigint[], $2::boolean[], $3::int[], $4::text[], $5::int[], $6::bigint[])
    AS o(id, ok, status_code, error, duration_ms, retry_ms)
  WHERE d.id = o.id`;

/** An endpoint's streak: a success ends it, a failure starts it if none runs. */
const STREAK = `UPDATE webhooks w SET failing_since = CASE WHEN s.ok THEN NULL ELSE COALESCE(w.failing_since, now()) END
  FROM (SELECT id, bool_or(ok) AS ok FROM unnest($1::bigint[], $2::boolean[]) AS o(id, ok) GROUP BY id) s
  WHERE w.id = s.id`;

/** The dispatcher's side of the delivery table. */
export class TypeOrmDeliveryQueue implements DeliveryQueue {
  constructor(private readonly db: EntityManager) {}

  async fanOut(limit: number): Promise<number> {
    return this.db.transaction(async (m) => {
      let [cursor] = (await m.query(
        `SELECT last_event_id FROM webhook_fanout WHERE id = 1 FOR UPDATE SKIP LOCKED`,
      )) as Array<{
        last_event_id: string;
      }>;
      if (!cursor) {
        // Either another instance holds it (then nothing to do) or the row is gone (tests empty every table).
        await m.query(`INSERT INTO webhook_fanout (id, last_event_id) VALUES (1, 0) ON CONFLICT DO NOTHING`);
        [cursor] = (await m.query(
          `SELECT last_event_id FROM webhook_fanout WHERE id = 1 FOR UPDATE SKIP LOCKED`,
        )) as Array<{
          last_event_id: string;
        }>;
        if (!cursor) return 0;
      }
      const after = fromInt8(cursor.last_event_id);
      const [batch] = (await m.query(
        `SELECT max(id) AS upto, count(*) AS n FROM (SELECT id FROM events WHERE id > $1 ORDER BY id LIMIT $2) b`,
        [after, limit],
      )) as Array<{ upto: string | null; n: string }>;
      if (batch.upto === null) return 0;
      const upto = fromInt8(batch.upto);
      await m.query(FAN_OUT, [after, upto]);
      await m.query(`UPDATE webhook_fanout SET last_event_id = $1 WHERE id = 1`, [upto]);
      return Number(batch.n);
    });
  }

  async claim(limit: number, send: (due: readonly ClaimedDelivery[]) => Promise<DeliveryOutcome[]>): Promise<number> {
    return this.db.transaction(async (m) => {
      const rows = (await m.query(CLAIM, [limit])) as ClaimRow[];
      if (rows.length === 0) return 0;
      const outcomes = await send(rows.map(toClaimed));
      if (outcomes.length === 0) return 0;
      const ids = outcomes.map((o) => o.deliveryId);
      const oks = outcomes.map((o) => o.ok);
      await m.query(RECORD, [
        ids,
        oks,
        outcomes.map((o) => o.statusCode),
        outcomes.map((o) => o.error?.slice(0, 300) ?? null),
        outcomes.map((o) => Math.round(o.durationMs)),
        outcomes.map((o) => o.retryInMs),
      ]);
      await m.query(STREAK, [outcomes.map((o) => o.webhookId), oks]);
      return outcomes.length;
    });
  }

  async disableFailingSince(ms: number): Promise<number> {
    const [, count] = (await this.db.query(
      `UPDATE webhooks SET enabled = false WHERE enabled AND failing_since < now() - $1 * interval '1 millisecond'`,
      [ms],
    )) as [unknown, number];
    return count;
  }
}

function toClaimed(row: ClaimRow): ClaimedDelivery {
  const deliveryId = fromInt8(row.id);
  const webhookId = fromInt8(row.webhook_id);
  const message =
    row.event_id === null || row.type === null || row.occurred_at === null || row.data === null
      ? pingMessage(deliveryId, webhookId, row.created_at)
      : eventMessage({ id: fromInt8(row.event_id), type: row.type, occurredAt: row.occurred_at, data: row.data });
  return {
    deliveryId,
    webhookId,
    url: row.url,
    secrets: signingSecretsOf(row),
    ...message,
    attempts: row.attempts,
    elapsedMs: Number(row.elapsed_ms),
  };
}
