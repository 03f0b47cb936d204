import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { fromInt8 } from '../../database/index.js';
import type { AttemptOutcome, DeliveryJob, DeliveryStore, DueDelivery } from '../domain/dispatch.js';
import { eventMessage, pingMessage } from '../domain/message.js';
import type { StoreEventData, StoreEventType } from '../domain/store-event.js';
import type { PgBossDeliveryQueue } from './pg-boss-delivery-queue.js';
import { cancelPending } from './typeorm-deliveries.js';
import { SECRET_COLUMNS, type SecretColumns, signingSecretsOf } from './typeorm-webhook.repository.js';

const DUE = `SELECT d.id, d.webhook_id, d.job_id, d.status, d.attempts, d.created_at,
    (EXTRACT(EPOCH FROM now() - d.first_due_at) * 1000)::bigint AS elapsed_ms,
    w.url, ${SECRET_COLUMNS}, w.enabled, k.revoked_at IS NOT NULL AS revoked,
    e.id AS event_id, e.type, e.occurred_at, e.data
  FROM webhook_deliveries d
  JOIN webhooks w ON w.id = d.webhook_id
  JOIN api_keys k ON k.id = w.api_key_id
  LEFT JOIN events e ON e.id = d.event_id
  WHERE d.id = $1`;

interface DueRow extends SecretColumns {
  id: string;
  webhook_id: string;
  job_id: string | null;
  status: string;
  attempts: number;
  created_at: Date;
  elapsed_ms: string;
  url: string;
  enabled: boolean;
  revoked: boolean;
  event_id: string | null;
  type: StoreEventType | null;
  occurred_at: Date | null;
  data: StoreEventData | null;
}

/** The attempt's row, only while this job is still the delivery's current one (not cancelled or superseded). */
const RECORD = `UPDATE webhook_deliveries SET
    attempts = attempts + 1,
    status = CASE WHEN $3 THEN 'delivered' WHEN $7::uuid IS NULL THEN 'failed' ELSE 'pending' END,
    last_status_code = $4,
    last_error = $5,
    last_duration_ms = $6,
    delivered_at = CASE WHEN $3 THEN now() ELSE delivered_at END,
    next_attempt_at = CASE WHEN $7::uuid IS NULL THEN NULL ELSE now() + $8::float8 * interval '1 millisecond' END,
    job_id = COALESCE($7::uuid, job_id),
    sending_until = NULL
  WHERE id = $1 AND job_id = $2 AND status = 'pending'`;

/** An endpoint's streak: a success ends it, a failure starts it if none runs; says whether it ran too long. */
const STREAK = `UPDATE webhooks SET failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(failing_since, now()) END
  WHERE id = $1
  RETURNING enabled AND failing_since < now() - $3 * interval '1 millisecond' AS too_long, failing_since`;

/** A delivery that found its endpoint's slots taken tries again after this (and up to as long again). */
const BUSY_RETRY_MS = 250;

export interface SendingLimits {
  /** Deliveries one endpoint is sent at once (WEBHOOKS_ENDPOINT_CONCURRENCY). */
  readonly endpointConcurrency: number;
  /** How long a sending slot is held at most: the transport's deadline and the time to record (a crash frees it so). */
  readonly slotMs: number;
}

/** The dispatcher's side of the delivery table; the jobs go with the rows, in the same transactions. */
export class TypeOrmDeliveryStore implements DeliveryStore {
  constructor(
    private readonly db: EntityManager,
    private readonly queue: PgBossDeliveryQueue,
    private readonly limits: SendingLimits,
  ) {}

  async due(job: DeliveryJob): Promise<DueDelivery | null> {
    const [row] = (await this.db.query(DUE, [job.deliveryId])) as DueRow[];
    if (!row || row.status !== 'pending' || row.job_id !== job.jobId) return null;
    if (!row.enabled || row.revoked) {
      // Checked again at send time: an endpoint disabled or a key revoked since the job was queued gets nothing.
      await this.db.transaction((m) =>
        cancelPending(m, this.queue, 'd.id = $1 AND d.job_id = $2', [job.deliveryId, job.jobId]),
      );
      return null;
    }
    return (await this.claimSlot(row)) ? toDue(row, job.jobId) : null;
  }

  /**
   * One of the endpoint's sending slots, or a new job a moment later (ahead of the
   * endpoint's others) when they are all taken. pg-boss's group limit already keeps
   * an endpoint's jobs apart, but each claim checks it on its own, so workers
   * claiming at the same moment can all pass it; here the endpoint's row lock
   * serialises the check. Slots expire (`slotMs`), so a crashed sender frees its own.
   */
  private claimSlot(row: DueRow): Promise<boolean> {
    return this.db.transaction(async (m) => {
      await m.query(`SELECT 1 FROM webhooks WHERE id = $1 FOR UPDATE`, [row.webhook_id]);
      const [{ busy }] = (await m.query(
        `SELECT count(*)::int AS busy FROM webhook_deliveries
         WHERE webhook_id = $1 AND status = 'pending' AND sending_until > now() AND id <> $2`,
        [row.webhook_id, row.id],
      )) as Array<{ busy: number }>;
      if (busy < this.limits.endpointConcurrency) {
        const [, claimed] = (await m.query(
          `UPDATE webhook_deliveries SET sending_until = now() + $3::float8 * interval '1 millisecond'
           WHERE id = $1 AND job_id = $2 AND status = 'pending'`,
          [row.id, row.job_id, this.limits.slotMs],
        )) as [unknown, number];
        return claimed > 0;
      }
      const jobId = randomUUID();
      const [, moved] = (await m.query(
        `UPDATE webhook_deliveries SET job_id = $3 WHERE id = $1 AND job_id = $2 AND status = 'pending'`,
        [row.id, row.job_id, jobId],
      )) as [unknown, number];
      const startAfter = new Date(Date.now() + BUSY_RETRY_MS * (1 + Math.random()));
      const job = { jobId, deliveryId: fromInt8(row.id), webhookId: fromInt8(row.webhook_id), startAfter, first: true };
      if (moved > 0) await this.queue.add([job], m);
      return false;
    });
  }

  async record(outcome: AttemptOutcome, disableAfterMs: number): Promise<string | null> {
    const { delivery } = outcome;
    const nextJobId = outcome.ok || outcome.retryInMs === null ? null : randomUUID();
    return this.db.transaction(async (m) => {
      const [, updated] = (await m.query(RECORD, [
        delivery.deliveryId,
        delivery.jobId,
        outcome.ok,
        outcome.statusCode,
        outcome.error?.slice(0, 300) ?? null,
        Math.round(outcome.durationMs),
        nextJobId,
        outcome.retryInMs,
      ])) as [unknown, number];
      if (updated === 0) return null; // cancelled or superseded while it was being sent
      if (nextJobId !== null && outcome.retryInMs !== null) {
        const startAfter = new Date(Date.now() + outcome.retryInMs);
        await this.queue.add(
          [{ jobId: nextJobId, deliveryId: delivery.deliveryId, webhookId: delivery.webhookId, startAfter }],
          m,
        );
      }
      const [[streak]] = (await m.query(STREAK, [delivery.webhookId, outcome.ok, disableAfterMs])) as [
        Array<{ too_long: boolean | null; failing_since: Date | null }>,
        number,
      ];
      const reason =
        outcome.disable ??
        (streak?.too_long && streak.failing_since
          ? `every delivery failed since ${streak.failing_since.toISOString()}`
          : null);
      if (reason === null) return null;
      const [, disabled] = (await m.query(
        `UPDATE webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1 AND enabled`,
        [delivery.webhookId, reason],
      )) as [unknown, number];
      if (disabled === 0) return null;
      await cancelPending(m, this.queue, 'd.webhook_id = $1', [delivery.webhookId]);
      return reason;
    });
  }
}

function toDue(row: DueRow, jobId: string): DueDelivery {
  const deliveryId = fromInt8(row.id);
  const webhookId = fromInt8(row.webhook_id);
  const message =
    row.event_id === null || row.type === null || row.occurred_at === null || row.data === null
      ? pingMessage(deliveryId, webhookId, row.created_at)
      : eventMessage({ id: fromInt8(row.event_id), type: row.type, occurredAt: row.occurred_at, data: row.data });
  return {
    deliveryId,
    webhookId,
    jobId,
    url: row.url,
    secrets: signingSecretsOf(row),
    ...message,
    attempts: row.attempts,
    elapsedMs: Number(row.elapsed_ms),
  };
}
