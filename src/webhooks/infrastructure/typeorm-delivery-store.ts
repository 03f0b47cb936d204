import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { appConfig } from '../../config/app.config.js';
import { fromInt8 } from '../../database/index.js';
import type { AttemptOutcome, DeliveryJob, DeliveryStore, DueDelivery } from '../domain/dispatch.js';
import type { EndpointState, SendDecision } from '../domain/endpoint-backoff.js';
import { eventMessage, pingMessage } from '../domain/message.js';
import type { StoreEventData, StoreEventType } from '../domain/store-event.js';
import { PgBossDeliveryQueue } from './pg-boss-delivery-queue.js';
import { cancelPending } from './typeorm-deliveries.js';
import { SECRET_COLUMNS, type SecretColumns, signingSecretsOf } from './typeorm-webhook.repository.js';

const DUE = `SELECT d.id, d.webhook_id, d.job_id, d.status, d.attempts, d.created_at,
    (EXTRACT(EPOCH FROM now() - d.first_due_at) * 1000)::bigint AS elapsed_ms,
    w.url, ${SECRET_COLUMNS}, w.enabled, k.revoked_at IS NOT NULL AS revoked,
    e.id AS event_id, e.type, e.occurred_at, e.data, e.trace_parent
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
  trace_parent: string | null;
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

/**
 * An endpoint's streak: a success ends it, a failure starts it if none runs; says whether it ran too long.
 * Its backoff: a 2xx ends it ($4), a failure sets it to the later of the two ($5, concurrent failures).
 */
const STREAK = `UPDATE webhooks SET failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(failing_since, now()) END,
    backoff_until = CASE WHEN $4 THEN NULL WHEN $5::timestamptz IS NULL THEN backoff_until
      ELSE GREATEST(backoff_until, $5::timestamptz) END
  WHERE id = $1
  RETURNING enabled AND failing_since < now() - $3 * interval '1 millisecond' AS too_long, failing_since`;

/** Jobs for the parked deliveries of endpoint $1, due when its backoff ends (or now); with $2, for the oldest only. */
const UNPARK = `UPDATE webhook_deliveries d SET job_id = gen_random_uuid(), next_attempt_at = due.at
  FROM (SELECT GREATEST(now(), backoff_until) AS at FROM webhooks WHERE id = $1) due
  WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending' AND job_id IS NULL
                 ORDER BY id LIMIT CASE WHEN $2 THEN 1 END)
  RETURNING d.id, d.job_id, due.at`;

/** Time to record an attempt, added to the transport's deadline (WEBHOOKS_TIMEOUT_MS) to bound a sending slot. */
const RECORDING_MS = 5_000;

/** The dispatcher's side of the delivery table; the jobs go with the rows, in the same transactions. */
@Injectable()
export class TypeOrmDeliveryStore implements DeliveryStore {
  /** How long a sending slot is held at most: the transport's deadline and the time to record (a crash frees it so). */
  private readonly slotMs: number;

  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queue: PgBossDeliveryQueue,
    @Inject(appConfig.KEY) { webhooks }: ConfigType<typeof appConfig>,
  ) {
    this.slotMs = webhooks.timeoutMs + RECORDING_MS;
  }

  async due(job: DeliveryJob): Promise<DueDelivery | null> {
    const [row] = await this.db.query<DueRow[]>(DUE, [job.deliveryId]);
    if (!row || row.status !== 'pending' || row.job_id !== job.jobId) return null;
    if (!row.enabled || row.revoked) {
      // Checked again at send time: an endpoint disabled or a key revoked since the job was queued gets nothing.
      await this.db.transaction((m) =>
        cancelPending(m, this.queue, 'd.id = $1 AND d.job_id = $2', [job.deliveryId, job.jobId]),
      );
      return null;
    }
    return toDue(row, job);
  }

  /**
   * pg-boss's group limit already keeps an endpoint's jobs apart, but each claim
   * checks it on its own, so workers claiming at the same moment can all pass it;
   * here the endpoint's row lock serialises the decision (and `record` changes the
   * backoff and the parked deliveries under the same lock).
   */
  claim(delivery: DueDelivery, decide: (endpoint: EndpointState) => SendDecision): Promise<boolean> {
    const { deliveryId, jobId, webhookId } = delivery;
    return this.db.transaction(async (m) => {
      const [endpoint] = await m.query<Array<{ backoff_until: Date | null; now: Date }>>(
        `SELECT backoff_until, now() AS now FROM webhooks WHERE id = $1 FOR UPDATE`,
        [webhookId],
      );
      if (!endpoint) return false; // deleted meanwhile
      const [others] = await m.query<Array<{ in_flight: number; probed: boolean; retrying: boolean }>>(
        `SELECT count(*) FILTER (WHERE sending_until > now())::int AS in_flight,
                count(*) FILTER (WHERE job_id IS NOT NULL) > 0 AS probed,
                count(*) FILTER (WHERE job_id IS NOT NULL AND attempts > 0) > 0 AS retrying
         FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending' AND id <> $2`,
        [webhookId, deliveryId],
      );
      const decision = decide({
        inFlight: others.in_flight,
        backoffUntil: endpoint.backoff_until,
        probed: others.probed,
        retrying: others.retrying,
        now: endpoint.now,
      });
      if (decision.send) {
        const [, claimed] = await m.query<[unknown, number]>(
          `UPDATE webhook_deliveries SET sending_until = now() + $3::float8 * interval '1 millisecond'
           WHERE id = $1 AND job_id = $2 AND status = 'pending'`,
          [deliveryId, jobId, this.slotMs],
        );
        return claimed > 0;
      }
      // Not an attempt: attempts and first_due_at (the retry window) stay. Waiting for a backoff shows its end as
      // the next attempt; a parked delivery has no job until `record` gives it one.
      const nextJobId = decision.why === 'parked' ? null : randomUUID();
      const [, moved] = await m.query<[unknown, number]>(
        `UPDATE webhook_deliveries SET job_id = $3::uuid,
           next_attempt_at = CASE WHEN $4 THEN $5::timestamptz ELSE next_attempt_at END
         WHERE id = $1 AND job_id = $2 AND status = 'pending'`,
        [deliveryId, jobId, nextJobId, decision.why !== 'busy', endpoint.backoff_until],
      );
      if (moved > 0 && nextJobId !== null && decision.why !== 'parked')
        await this.queue.add(
          [
            {
              jobId: nextJobId,
              deliveryId,
              webhookId,
              startAfter: decision.at,
              // A delivery that found its endpoint busy keeps its place ahead of the endpoint's others.
              first: decision.why === 'busy',
              askedByOwner: delivery.askedByOwner,
            },
          ],
          m,
        );
      return false;
    });
  }

  async record(outcome: AttemptOutcome, disableAfterMs: number): Promise<string | null> {
    const { delivery } = outcome;
    const nextJobId = outcome.ok || outcome.retryInMs === null ? null : randomUUID();
    return this.db.transaction(async (m) => {
      const [, updated] = await m.query<[unknown, number]>(RECORD, [
        delivery.deliveryId,
        delivery.jobId,
        outcome.ok,
        outcome.statusCode,
        outcome.error?.slice(0, 300) ?? null,
        Math.round(outcome.durationMs),
        nextJobId,
        outcome.retryInMs,
      ]);
      if (updated === 0) return null; // cancelled or superseded while it was being sent
      if (nextJobId !== null && outcome.retryInMs !== null) {
        // Due when the endpoint's backoff ends (as the deliveries moved to wait for it, after it), not a moment
        // before: its claim would find the endpoint still backing off.
        const startAfter =
          typeof outcome.endpoint === 'object'
            ? outcome.endpoint.backOffUntil
            : new Date(Date.now() + outcome.retryInMs);
        await this.queue.add(
          [{ jobId: nextJobId, deliveryId: delivery.deliveryId, webhookId: delivery.webhookId, startAfter }],
          m,
        );
      }
      const verdict = outcome.endpoint;
      const [[streak]] = await m.query<[Array<{ too_long: boolean | null; failing_since: Date | null }>, number]>(
        STREAK,
        [
          delivery.webhookId,
          outcome.ok,
          disableAfterMs,
          verdict === 'answered',
          typeof verdict === 'object' ? verdict.backOffUntil : null,
        ],
      );
      if (outcome.ok) await this.unpark(m, delivery.webhookId, 'all');
      else if (nextJobId === null) await this.unpark(m, delivery.webhookId, 'probe');
      const reason =
        outcome.disable ??
        (streak?.too_long && streak.failing_since
          ? `every delivery failed since ${streak.failing_since.toISOString()}`
          : null);
      if (reason === null) return null;
      const [, disabled] = await m.query<[unknown, number]>(
        `UPDATE webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1 AND enabled`,
        [delivery.webhookId, reason],
      );
      if (disabled === 0) return null;
      await cancelPending(m, this.queue, 'd.webhook_id = $1', [delivery.webhookId]);
      return reason;
    });
  }

  /**
   * Gives parked deliveries their jobs back, under the endpoint's row lock (taken
   * by STREAK): all of them once the endpoint answered; after an attempt that left
   * no job (the delivery is done or failed for good), the oldest, when no other
   * pending delivery has one, so that one of them tries the endpoint when its
   * backoff ends.
   */
  private async unpark(m: EntityManager, webhookId: number, which: 'all' | 'probe'): Promise<void> {
    if (which === 'probe') {
      const [{ probed }] = await m.query<Array<{ probed: boolean }>>(
        `SELECT EXISTS (SELECT 1 FROM webhook_deliveries
           WHERE webhook_id = $1 AND status = 'pending' AND job_id IS NOT NULL) AS probed`,
        [webhookId],
      );
      if (probed) return;
    }
    const [rows] = await m.query<[Array<{ id: string; job_id: string; at: Date }>, number]>(UNPARK, [
      webhookId,
      which === 'probe',
    ]);
    const jobs = rows
      .map((r) => ({ jobId: r.job_id, deliveryId: fromInt8(r.id), webhookId, startAfter: r.at }))
      .sort((x, y) => x.deliveryId - y.deliveryId);
    await this.queue.add(jobs, m);
  }
}

function toDue(row: DueRow, job: DeliveryJob): DueDelivery {
  const deliveryId = fromInt8(row.id);
  const webhookId = fromInt8(row.webhook_id);
  const message =
    row.event_id === null || row.type === null || row.occurred_at === null || row.data === null
      ? pingMessage(deliveryId, webhookId, row.created_at)
      : eventMessage({ id: fromInt8(row.event_id), type: row.type, occurredAt: row.occurred_at, data: row.data });
  return {
    deliveryId,
    webhookId,
    jobId: job.jobId,
    url: row.url,
    secrets: signingSecretsOf(row),
    ...message,
    attempts: row.attempts,
    elapsedMs: Number(row.elapsed_ms),
    askedByOwner: job.askedByOwner,
    traceParent: row.trace_parent,
  };
}
