import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { appConfig, type WebhooksConfig } from '../../config/app.config.js';
import { linksTo, tracer, withTraceContext } from '../../tracing/spans.js';
import {
  type DeliveryJob,
  type DueDelivery,
  DeliveryStore,
  type TransportResult,
  WebhookTransport,
} from '../domain/dispatch.js';
import { decideSend, endpointVerdict } from '../domain/endpoint-backoff.js';
import { SecretBox } from '../domain/ports.js';
import { backoffDelayMs, withinRetryWindow } from '../domain/retry-schedule.js';
import { deliveryHeaders } from '../domain/signature.js';
import { type SigningSecrets, secretsInUse } from '../domain/signing-secrets.js';
import { WebhookMetrics } from '../domain/webhook-metrics.js';

/** An attempt that failed before anything was sent. */
const NOT_SENT: TransportResult = {
  ok: false,
  statusCode: null,
  error: null,
  durationMs: 0,
  gone: false,
  retryAfterMs: null,
};

/** Why a 410 disables an endpoint, as its owner reads it (`disabledReason`). */
export const GONE_REASON = 'the endpoint answered 410 Gone';

/**
 * Sends one delivery for its job: reads what it needs (no transaction), claims
 * one of the endpoint's sending slots unless the endpoint is busy or backing off
 * (then the delivery waits for a later job), signs, POSTs, then records the
 * outcome, the endpoint's backoff and the next attempt in one short transaction.
 * A secret that cannot be opened fails this delivery only, like a receiver that
 * does not answer, but does not back the endpoint off (the fault is ours).
 *
 * Each attempt is a span of its own trace (`webhook.delivery`: the endpoint's id,
 * the delivery's, the attempt's number, the receiver's status), linked to the span of
 * the change that made the event; its POST is a span under it, whose `traceparent`
 * the receiver gets.
 */
@Injectable()
export class DeliverySender {
  private readonly logger = new Logger('Webhooks');
  private readonly config: WebhooksConfig;

  constructor(
    private readonly store: DeliveryStore,
    private readonly transport: WebhookTransport,
    private readonly secrets: SecretBox,
    private readonly metrics: WebhookMetrics,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.config = config.webhooks;
  }

  async deliver(job: DeliveryJob): Promise<void> {
    const delivery = await this.store.due(job);
    if (!delivery) return;
    const options = { kind: SpanKind.CONSUMER, root: true, links: linksTo(delivery.traceParent) };
    await tracer.startActiveSpan('webhook.delivery', options, async (span) => {
      try {
        if (span.isRecording()) {
          span.setAttributes({
            'petstore.webhook.id': delivery.webhookId,
            'petstore.webhook.delivery.id': delivery.deliveryId,
            'petstore.webhook.attempt': delivery.attempts + 1,
          });
        }
        await this.attempt(delivery, span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  private async attempt(delivery: DueDelivery, span: Span): Promise<void> {
    const rules = {
      endpointConcurrency: this.config.endpointConcurrency,
      askedByOwner: delivery.askedByOwner,
      attempts: delivery.attempts,
    };
    if (!(await this.store.claim(delivery, (endpoint) => decideSend(endpoint, rules)))) {
      span.setAttribute('petstore.webhook.outcome', 'deferred'); // the endpoint is busy or backing off
      return;
    }
    // During a rotation's overlap, signed with the new secret and the old one (docs/webhooks.md).
    const now = new Date();
    const secrets = this.openSecrets(delivery.secrets, now);
    const result: TransportResult =
      secrets === null
        ? { ...NOT_SENT, error: 'the signing secret cannot be opened' }
        : await this.post(delivery, deliveryHeaders(secrets, delivery.messageId, now, delivery.body));
    // One draw: the failed delivery's next attempt, and until when its endpoint backs off (even when the
    // delivery's retry window is spent, so that the endpoint's next delivery does not go at once).
    const delayMs = backoffDelayMs(this.config, delivery.attempts + 1, result.retryAfterMs);
    const retryInMs = result.ok || result.gone ? null : withinRetryWindow(this.config, delivery.elapsedMs, delayMs);
    const endpoint = endpointVerdict({ ...result, sent: secrets !== null }, new Date(Date.now() + delayMs));
    const outcome = result.ok ? 'delivered' : retryInMs === null ? 'failed' : 'retrying';
    this.metrics.attempt(outcome, result.durationMs / 1000);
    if (span.isRecording()) {
      span.setAttribute('petstore.webhook.outcome', outcome);
      if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
      if (!result.ok)
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `HTTP ${result.statusCode}` });
    }
    const disabled = await this.store.record(
      { delivery, ...result, retryInMs, disable: result.gone ? GONE_REASON : null, endpoint },
      this.config.disableAfterMs,
    );
    if (disabled) this.logger.warn(`Disabled webhook endpoint ${delivery.webhookId}: ${disabled}`);
  }

  /**
   * The POST, as a span of its own (`POST`, the status; not the URL, which may hold the
   * receiver's own token) whose context the receiver gets as `traceparent`.
   */
  private post(delivery: DueDelivery, headers: Readonly<Record<string, string>>): Promise<TransportResult> {
    return tracer.startActiveSpan('POST', { kind: SpanKind.CLIENT }, async (span) => {
      try {
        const result = await this.transport.post(delivery.url, withTraceContext(headers), delivery.body);
        if (span.isRecording()) {
          span.setAttribute('http.request.method', 'POST');
          if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
          if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return result;
      } finally {
        span.end();
      }
    });
  }

  /** The secrets in use, opened; null when one cannot be opened (sealed under another WEBHOOKS_SECRET_KEY, damaged). */
  private openSecrets(sealed: SigningSecrets, now: Date): string[] | null {
    try {
      return secretsInUse(sealed, now).map((secret) => this.secrets.open(secret));
    } catch {
      return null;
    }
  }
}
