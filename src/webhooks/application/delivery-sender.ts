import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig, type WebhooksConfig } from '../../config/app.config.js';
import {
  DELIVERY_STORE,
  type DeliveryJob,
  type DeliveryStore,
  type TransportResult,
  WEBHOOK_TRANSPORT,
  type WebhookTransport,
} from '../domain/dispatch.js';
import { SECRET_BOX, type SecretBox } from '../domain/ports.js';
import { retryDelayMs } from '../domain/retry-schedule.js';
import { signatureHeader } from '../domain/signature.js';
import { WEBHOOK_METRICS, type WebhookMetrics } from '../domain/webhook-metrics.js';

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
 * The three Standard Webhooks headers of one message: the one place they are
 * made. `secrets` are the opened signing secrets (one signature each,
 * space-separated, as the standard allows during a rotation).
 */
export function webhookHeaders(
  secrets: readonly string[],
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signatureHeader(s, messageId, timestampSeconds, body)).join(' '),
  };
}

/**
 * Sends one delivery for its job: reads what it needs (no transaction), signs,
 * POSTs, then records the outcome and schedules the next attempt in one short
 * transaction. A secret that cannot be opened fails this delivery only, like a
 * receiver that does not answer.
 */
@Injectable()
export class DeliverySender {
  private readonly logger = new Logger('Webhooks');
  private readonly config: WebhooksConfig;

  constructor(
    @Inject(DELIVERY_STORE) private readonly store: DeliveryStore,
    @Inject(WEBHOOK_TRANSPORT) private readonly transport: WebhookTransport,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(WEBHOOK_METRICS) private readonly metrics: WebhookMetrics,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.config = config.webhooks;
  }

  async deliver(job: DeliveryJob): Promise<void> {
    const delivery = await this.store.due(job);
    if (!delivery) return;
    const secret = this.openSecret(delivery.sealedSecret);
    const result: TransportResult =
      secret === null
        ? { ...NOT_SENT, error: 'the signing secret cannot be opened' }
        : await this.transport.post(
            delivery.url,
            webhookHeaders([secret], delivery.messageId, Math.floor(Date.now() / 1000), delivery.body),
            delivery.body,
          );
    const retryInMs =
      result.ok || result.gone
        ? null
        : retryDelayMs(this.config, delivery.attempts + 1, delivery.elapsedMs, result.retryAfterMs);
    this.metrics.attempt(
      result.ok ? 'delivered' : retryInMs === null ? 'failed' : 'retrying',
      result.durationMs / 1000,
    );
    const disabled = await this.store.record(
      { delivery, ...result, retryInMs, disable: result.gone ? GONE_REASON : null },
      this.config.disableAfterMs,
    );
    if (disabled) this.logger.warn(`Disabled webhook endpoint ${delivery.webhookId}: ${disabled}`);
  }

  /** The opened secret, or null when it cannot be opened (sealed under another WEBHOOKS_SECRET_KEY, damaged). */
  private openSecret(sealed: string): string | null {
    try {
      return this.secrets.open(sealed);
    } catch {
      return null;
    }
  }
}
