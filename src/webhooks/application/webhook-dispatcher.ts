import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig, type WebhooksConfig } from '../../config/app.config.js';
import {
  type ClaimedDelivery,
  DELIVERY_QUEUE,
  type DeliveryOutcome,
  type DeliveryQueue,
  WEBHOOK_TRANSPORT,
  type WebhookTransport,
} from '../domain/dispatch.js';
import { EVENT_STORE, type EventStore, SECRET_BOX, type SecretBox } from '../domain/ports.js';
import { retryDelayMs } from '../domain/retry-schedule.js';
import { deliveryHeaders } from '../domain/signature.js';
import { secretsInUse } from '../domain/signing-secrets.js';
import { WEBHOOK_METRICS, type WebhookMetrics } from '../domain/webhook-metrics.js';

/** Events fanned out into deliveries per round. */
const FAN_OUT_BATCH = 500;
const SWEEP_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Sends the deliveries, inside the service. Each round: turn new events into
 * deliveries (one instance at a time), then claim up to `concurrency` due ones
 * with `FOR UPDATE SKIP LOCKED`, POST them in parallel and record the outcomes in
 * the claiming transaction. Several instances never send one delivery at the
 * same time (the row lock), and a crash loses nothing (the transaction rolls
 * back, the deliveries are due again: at least once). Idle, it polls every
 * WEBHOOKS_POLL_INTERVAL_MS; busy, it goes on at once. On shutdown it stops
 * claiming and finishes the batch in flight.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly config: WebhooksConfig;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private stopping = false;
  private lastSweep = 0;
  private failingSinceLogged = false;

  constructor(
    @Inject(DELIVERY_QUEUE) private readonly queue: DeliveryQueue,
    @Inject(WEBHOOK_TRANSPORT) private readonly transport: WebhookTransport,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(WEBHOOK_METRICS) private readonly metrics: WebhookMetrics,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.config = config.webhooks;
  }

  onApplicationBootstrap(): void {
    if (this.config.dispatcher) this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.round = this.run().finally(() => this.schedule(this.config.pollIntervalMs));
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    try {
      let busy = true;
      while (busy && !this.stopping) {
        const fanned = await this.queue.fanOut(FAN_OUT_BATCH);
        const sent = await this.queue.claim(this.config.concurrency, (due) => this.sendAll(due));
        busy = fanned === FAN_OUT_BATCH || sent === this.config.concurrency;
      }
      if (Date.now() - this.lastSweep > SWEEP_EVERY_MS && !this.stopping) await this.sweep();
      this.failingSinceLogged = false;
    } catch (error) {
      // The database may be down for a while: say so once, retry on the next round.
      if (!this.failingSinceLogged)
        this.logger.warn(`Delivery round failed: ${error instanceof Error ? error.message : String(error)}`);
      this.failingSinceLogged = true;
    }
  }

  private async sweep(): Promise<void> {
    this.lastSweep = Date.now();
    const swept = await this.events.sweep(new Date(Date.now() - this.config.eventsRetentionDays * DAY_MS));
    if (swept > 0) this.logger.log(`Swept ${swept} events older than ${this.config.eventsRetentionDays} days`);
  }

  private async sendAll(due: readonly ClaimedDelivery[]): Promise<DeliveryOutcome[]> {
    const outcomes = await Promise.all(due.map((d) => this.send(d)));
    if (outcomes.some((o) => !o.ok)) {
      const disabled = await this.queue.disableFailingSince(this.config.disableAfterMs);
      if (disabled > 0) this.logger.warn(`Disabled ${disabled} webhook endpoints failing for too long`);
    }
    return outcomes;
  }

  private async send(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    // During a rotation's overlap, signed with the new secret and the old one (docs/webhooks.md).
    const now = new Date();
    const secrets = secretsInUse(delivery.secrets, now).map((sealed) => this.secrets.open(sealed));
    const headers = deliveryHeaders(secrets, delivery.messageId, now, delivery.body);
    const result = await this.transport.post(delivery.url, headers, delivery.body);
    const retryInMs = result.ok ? null : retryDelayMs(this.config, delivery.attempts + 1, delivery.elapsedMs);
    this.metrics.attempt(
      result.ok ? 'delivered' : retryInMs === null ? 'failed' : 'retrying',
      result.durationMs / 1000,
    );
    return { ...result, deliveryId: delivery.deliveryId, webhookId: delivery.webhookId, retryInMs };
  }
}
