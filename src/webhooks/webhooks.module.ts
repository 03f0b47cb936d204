import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { appConfig } from '../config/app.config.js';
import { AppMetrics } from '../metrics/app-metrics.js';
import { EventsService } from './application/events.service.js';
import { DeliverySender } from './application/delivery-sender.js';
import { OutboxSubscriber } from './application/outbox.subscriber.js';
import { WebhookDispatcher } from './application/webhook-dispatcher.js';
import { WebhooksService } from './application/webhooks.service.js';
import { DELIVERY_STORE, DELIVERY_WORKERS, OUTBOX_RELAY, WEBHOOK_TRANSPORT } from './domain/dispatch.js';
import {
  DELIVERY_REPOSITORY,
  EVENT_STORE,
  type EventStore,
  SECRET_BOX,
  TARGET_RESOLVER,
  type TargetResolver,
  WEBHOOK_REPOSITORY,
} from './domain/ports.js';
import { WEBHOOK_METRICS } from './domain/webhook-metrics.js';
import { EventsController } from './http/events.controller.js';
import { WebhooksController } from './http/webhooks.controller.js';
import { LazySecretBox, loadSecretKey } from './infrastructure/aes-secret-box.js';
import { HttpWebhookTransport } from './infrastructure/http-webhook-transport.js';
import { Webhooks1764028800000 } from './infrastructure/migrations/1764028800000-webhooks.js';
import { WebhookSecretRotation1795759200000 } from './infrastructure/migrations/1795759200000-webhook-secret-rotation.js';
import { DeliveryJobs1795780800000 } from './infrastructure/migrations/1795780800000-delivery-jobs.js';
import { EndpointBackoff1795802400000 } from './infrastructure/migrations/1795802400000-endpoint-backoff.js';
import { NodeTargetResolver } from './infrastructure/node-target-resolver.js';
import { PrometheusWebhookMetrics } from './infrastructure/prometheus-webhook-metrics.js';
import { PgBossDeliveryQueue } from './infrastructure/pg-boss-delivery-queue.js';
import { TypeOrmDeliveryRepository } from './infrastructure/typeorm-deliveries.js';
import { TypeOrmDeliveryStore } from './infrastructure/typeorm-delivery-store.js';
import { TypeOrmOutboxRelay } from './infrastructure/typeorm-outbox-relay.js';
import { TypeOrmEventStore } from './infrastructure/typeorm-event-store.js';
import { TypeOrmWebhookRepository } from './infrastructure/typeorm-webhook.repository.js';

/** This module's migrations, in order: the composition root runs them after the core's. */
export const WEBHOOK_MIGRATIONS = [
  Webhooks1764028800000,
  WebhookSecretRotation1795759200000,
  DeliveryJobs1795780800000,
  EndpointBackoff1795802400000,
];

/** Migrations of this module that shipped under a name dated ahead of the clock: former name → name. */
export const WEBHOOK_MIGRATION_RENAMES = {
  DeliveryJobs1796342400000: 'DeliveryJobs1795780800000',
  EndpointBackoff1796428800000: 'EndpointBackoff1795802400000',
};

type Config = ConfigType<typeof appConfig>;

/**
 * The transactional outbox of the store's events, the event feed (GET /events),
 * webhook endpoints per API key and the dispatcher that delivers to them.
 */
@Module({
  controllers: [EventsController, WebhooksController],
  providers: [
    EventsService,
    WebhooksService,
    OutboxSubscriber,
    WebhookDispatcher,
    DeliverySender,
    {
      provide: PgBossDeliveryQueue,
      inject: [appConfig.KEY],
      useFactory: ({ databaseUrl, webhooks }: Config) => {
        if (!databaseUrl) throw new Error('DATABASE_URL must be resolved before the webhooks module starts');
        return new PgBossDeliveryQueue({ databaseUrl, ...webhooks });
      },
    },
    { provide: DELIVERY_WORKERS, useExisting: PgBossDeliveryQueue },
    { provide: EVENT_STORE, inject: [DataSource], useFactory: (db: DataSource) => new TypeOrmEventStore(db.manager) },
    {
      provide: WEBHOOK_REPOSITORY,
      inject: [DataSource],
      useFactory: (db: DataSource) => new TypeOrmWebhookRepository(db.manager),
    },
    {
      provide: DELIVERY_REPOSITORY,
      inject: [DataSource, PgBossDeliveryQueue],
      useFactory: (db: DataSource, queue: PgBossDeliveryQueue) => new TypeOrmDeliveryRepository(db.manager, queue),
    },
    {
      provide: OUTBOX_RELAY,
      inject: [DataSource, PgBossDeliveryQueue],
      useFactory: (db: DataSource, queue: PgBossDeliveryQueue) => new TypeOrmOutboxRelay(db.manager, queue),
    },
    {
      provide: DELIVERY_STORE,
      inject: [DataSource, PgBossDeliveryQueue, appConfig.KEY],
      useFactory: (db: DataSource, queue: PgBossDeliveryQueue, { webhooks }: Config) =>
        new TypeOrmDeliveryStore(db.manager, queue, { slotMs: webhooks.timeoutMs + 5_000 }),
    },
    {
      provide: SECRET_BOX,
      inject: [appConfig.KEY],
      useFactory: (config: Config) => new LazySecretBox(() => loadSecretKey(config.webhooks.secretKey, config.dataDir)),
    },
    { provide: TARGET_RESOLVER, useFactory: () => new NodeTargetResolver() },
    {
      provide: WEBHOOK_TRANSPORT,
      inject: [TARGET_RESOLVER, appConfig.KEY],
      useFactory: (resolver: TargetResolver, config: Config) =>
        HttpWebhookTransport.fromConfig(resolver, config.webhooks),
    },
    {
      provide: WEBHOOK_METRICS,
      inject: [AppMetrics, EVENT_STORE],
      useFactory: (metrics: AppMetrics, events: EventStore) => new PrometheusWebhookMetrics(metrics, events),
    },
  ],
})
export class WebhooksModule {}
