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
import { deliveryHeaders } from '../domain/signature.js';
import { type SigningSecrets, secretsInUse } from '../domain/signing-secrets.js';
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
    // During a rotation's overlap, signed with the new secret and the old one (docs/webhooks.md).
    const now = new Date();
    const secrets = this.openSecrets(delivery.secrets, now);
    const result: TransportResult =
      secrets === null
        ? { ...NOT_SENT, error: 'the signing secret cannot be opened' }
        : await this.transport.post(
            delivery.url,
            deliveryHeaders(secrets, delivery.messageId, now, delivery.body),
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

  /** The secrets in use, opened; null when one cannot be opened (sealed under another WEBHOOKS_SECRET_KEY, damaged). */
  private openSecrets(sealed: SigningSecrets, now: Date): string[] | null {
    try {
      return secretsInUse(sealed, now).map((secret) => this.secrets.open(secret));
    } catch {
      return null;
    }
  }
}
