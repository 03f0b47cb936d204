import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Interval } from '@nestjs/schedule';
import { appConfig, type WebhooksConfig } from '../../config/app.config.js';
import { DAY_MS } from '../../shared/clock.js';
import { DeliveryWorkers, OutboxRelay } from '../domain/dispatch.js';
import { EventStore } from '../domain/ports.js';
import { DeliverySender } from './delivery-sender.js';

/** Events relayed into deliveries per transaction. */
const RELAY_BATCH = 500;
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Delivery in this instance (unless WEBHOOKS_DISPATCHER=false): the job queue's
 * workers, which send each delivery (`DeliverySender`), and the relay, which turns
 * new events of the outbox into deliveries and their jobs every
 * WEBHOOKS_POLL_INTERVAL_MS, the first time one interval after start-up (at once
 * again while it finds full batches); and, at
 * start-up and then hourly, the sweep of events past their retention. On shutdown
 * the relay stops and the workers finish or release what they hold.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly config: WebhooksConfig;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private stopping = false;
  private workersStarted = false;
  private failingSinceLogged = false;

  constructor(
    private readonly outbox: OutboxRelay,
    private readonly workers: DeliveryWorkers,
    private readonly events: EventStore,
    private readonly sender: DeliverySender,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.config = config.webhooks;
  }

  onApplicationBootstrap(): void {
    if (!this.config.dispatcher) return;
    // The first round, like every other, one interval from now: starting the job queue (its
    // schema check, queue and listening connection) is then not in the way of the start's
    // first requests (docs/performance.md, "Cold starts").
    this.schedule(this.config.pollIntervalMs);
    void this.sweep(); // cannot reject: a failed sweep is logged, and tried again in an hour
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
      this.failingSinceLogged = false;
    } catch (error) {
      // The database may be down for a while: say so once, try again on the next round.
      if (!this.failingSinceLogged)
        this.logger.warn(`Webhook relay failed: ${error instanceof Error ? error.message : String(error)}`);
      this.failingSinceLogged = true;
    }
  }

  /** Deletes the events past EVENTS_RETENTION_DAYS (and their deliveries), where this instance delivers. */
  @Interval('events-sweep', SWEEP_EVERY_MS)
  async sweep(): Promise<void> {
    if (!this.config.dispatcher || this.stopping) return;
    try {
      const swept = await this.events.sweep(new Date(Date.now() - this.config.eventsRetentionDays * DAY_MS));
      if (swept > 0) this.logger.log(`Swept ${swept} events older than ${this.config.eventsRetentionDays} days`);
    } catch (error) {
      this.logger.warn(`Event sweep failed; will retry: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
