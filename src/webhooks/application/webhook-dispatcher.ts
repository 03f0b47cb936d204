import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig, type WebhooksConfig } from '../../config/app.config.js';
import { DELIVERY_WORKERS, type DeliveryWorkers, OUTBOX_RELAY, type OutboxRelay } from '../domain/dispatch.js';
import { EVENT_STORE, type EventStore } from '../domain/ports.js';
import { DeliverySender } from './delivery-sender.js';

/** Events relayed into deliveries per transaction. */
const RELAY_BATCH = 500;
const SWEEP_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Delivery in this instance (unless WEBHOOKS_DISPATCHER=false): the job queue's
 * workers, which send each delivery (`DeliverySender`), and the relay, which turns
 * new events of the outbox into deliveries and their jobs every
 * WEBHOOKS_POLL_INTERVAL_MS (at once again while it finds full batches) and, once
 * an hour, sweeps events past their retention. On shutdown the relay stops and
 * the workers finish or release what they hold.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly config: WebhooksConfig;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private stopping = false;
  private workersStarted = false;
  private lastSweep = 0;
  private failingSinceLogged = false;

  constructor(
    @Inject(OUTBOX_RELAY) private readonly outbox: OutboxRelay,
    @Inject(DELIVERY_WORKERS) private readonly workers: DeliveryWorkers,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sender: DeliverySender,
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
    await this.workers.stop();
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
      if (!this.workersStarted) {
        await this.workers.start((job) => this.sender.deliver(job));
        this.workersStarted = true;
      }
      while (!this.stopping && (await this.outbox.relay(RELAY_BATCH)) === RELAY_BATCH);
      if (Date.now() - this.lastSweep > SWEEP_EVERY_MS && !this.stopping) await this.sweep();
      this.failingSinceLogged = false;
    } catch (error) {
      // The database may be down for a while: say so once, try again on the next round.
      if (!this.failingSinceLogged)
        this.logger.warn(`Webhook relay failed: ${error instanceof Error ? error.message : String(error)}`);
      this.failingSinceLogged = true;
    }
  }

  private async sweep(): Promise<void> {
    this.lastSweep = Date.now();
    const swept = await this.events.sweep(new Date(Date.now() - this.config.eventsRetentionDays * DAY_MS));
    if (swept > 0) this.logger.log(`Swept ${swept} events older than ${this.config.eventsRetentionDays} days`);
  }
}
