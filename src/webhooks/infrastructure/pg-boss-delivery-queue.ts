import { Logger } from '@nestjs/common';
import type { Db, JobInsert, PgBoss } from 'pg-boss';
import type { EntityManager } from 'typeorm';
import type { DeliveryJob, DeliveryWorkers } from '../domain/dispatch.js';

/** The pg-boss queue of webhook deliveries: one job per attempt. */
export const DELIVERY_QUEUE = 'webhook-delivery';
/** pg-boss's tables, in a schema of their own in the service's database (created by pg-boss at start). */
export const PG_BOSS_SCHEMA = 'pgboss';

/**
 * pg-boss's own retries are for crashes only (an instance killed or a database
 * error while a job is active): the retry schedule of failed attempts is ours
 * (a new job per attempt, see docs/webhooks.md), since pg-boss's backoff is not
 * full jitter and cannot follow a receiver's Retry-After.
 */
const CRASH_RETRIES = 10;
/**
 * How often expired jobs (their instance died) are looked for, and the queue's
 * backlog counted (the workers fetch without pause while there is one).
 */
const QUEUE_CHECK_SECONDS = 2;
/** Connections of pg-boss's own pool (its workers' fetches, maintenance, LISTEN). */
const POOL_MAX = 4;

export interface DeliveryQueueOptions {
  readonly databaseUrl: string;
  /** This instance's workers. */
  readonly concurrency: number;
  /** Deliveries in flight per endpoint, across instances. */
  readonly endpointConcurrency: number;
  /** The transport's deadline: a job active much longer than this belongs to a dead instance. */
  readonly timeoutMs: number;
  /** The idle poll (new jobs wake the workers at once through LISTEN/NOTIFY). */
  readonly pollIntervalMs: number;
  /** How long a pending retry may wait (the retry window). */
  readonly retryForMs: number;
}

/** A job to add: the delivery it sends, the endpoint it counts against, and when it is due. */
export interface NewDeliveryJob {
  readonly jobId: string;
  readonly deliveryId: number;
  readonly webhookId: number;
  readonly startAfter?: Date;
  /** Fetched before the endpoint's other jobs (a delivery that found its endpoint busy keeps its place). */
  readonly first?: boolean;
  /** The owner asked for it (`POST …/retry`, a ping): it does not wait for the endpoint's backoff. */
  readonly askedByOwner?: boolean;
}

interface JobData {
  readonly deliveryId: number;
  readonly askedByOwner?: boolean;
}

/**
 * pg-boss's `db` option over a TypeORM transaction: the statements pg-boss makes
 * for `insert` and `cancel` run in it, so jobs come and go with the transaction's
 * rows. (The runner's structured result gives rows for every kind of statement.)
 */
function inTransaction(manager: EntityManager): Db {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new TypeError('pg-boss statements need an open transaction');
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await runner.query(text, values, true);
      return { rows: (result.records ?? []) as unknown[] };
    },
  };
}

/**
 * A pg-boss instance, the package loaded only now: it and the scheduling packages it
 * imports are ~15 ms of a start, and an instance starts its queue after its first
 * requests (or never: WEBHOOKS_DISPATCHER=false, no delivery asked of it).
 */
async function createBoss(options: DeliveryQueueOptions, logger: Logger): Promise<PgBoss> {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: PG_BOSS_SCHEMA,
    max: POOL_MAX,
    application_name: 'petstore-api pg-boss',
    useListenNotify: true,
    schedule: false,
    registerInstance: false,
    superviseIntervalSeconds: QUEUE_CHECK_SECONDS,
    monitorIntervalSeconds: QUEUE_CHECK_SECONDS,
    queueCacheIntervalSeconds: QUEUE_CHECK_SECONDS,
    openTelemetry: { enabled: false },
  });
  // Without a listener an 'error' event would end the process; pg-boss retries on its own.
  boss.on('error', (error) => logger.warn(`Job queue: ${error.message}`));
  return boss;
}

/**
 * The pg-boss instance: started by the dispatcher's first round where this
 * instance delivers, otherwise on first use (a ping or a retry asked of an instance that only serves HTTP),
 * and stopped with the application.
 */
export class PgBossDeliveryQueue implements DeliveryWorkers {
  private readonly logger = new Logger('Webhooks');
  /** Made at the first start (`createBoss`). */
  private boss: PgBoss | undefined;
  private starting: Promise<PgBoss> | null = null;
  private readonly expireInSeconds: number;

  constructor(private readonly options: DeliveryQueueOptions) {
    this.expireInSeconds = Math.ceil(options.timeoutMs / 1000) + 10;
  }

  /** Starts pg-boss once (creating or migrating its schema) and makes sure the queue exists. */
  ready(): Promise<PgBoss> {
    this.starting ??= this.boot().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  /** Adds jobs in the transaction of `manager`. */
  async add(jobs: readonly NewDeliveryJob[], manager: EntityManager): Promise<void> {
    if (jobs.length === 0) return;
    const boss = await this.ready();
    const inserts: Array<JobInsert<JobData>> = jobs.map((job) => ({
      id: job.jobId,
      data: { deliveryId: job.deliveryId, ...(job.askedByOwner ? { askedByOwner: true } : {}) },
      group: { id: String(job.webhookId) },
      ...(job.startAfter ? { startAfter: job.startAfter } : {}),
      ...(job.first ? { priority: 1 } : {}),
    }));
    await boss.insert(DELIVERY_QUEUE, inserts, { db: inTransaction(manager) });
  }

  /** Cancels queued jobs in the transaction of `manager` (done or unknown ones are left alone). */
  async cancel(jobIds: readonly string[], manager: EntityManager): Promise<void> {
    if (jobIds.length === 0) return;
    const boss = await this.ready();
    await boss.cancel(DELIVERY_QUEUE, [...jobIds], { db: inTransaction(manager) });
  }

  async start(send: (job: DeliveryJob) => Promise<void>): Promise<void> {
    const boss = await this.ready();
    const pollSeconds = Math.max(0.5, this.options.pollIntervalMs / 1000);
    await boss.work<JobData>(
      DELIVERY_QUEUE,
      {
        localConcurrency: this.options.concurrency,
        groupConcurrency: this.options.endpointConcurrency,
        // A worker that just sent fetches again at once while jobs are ready; idle, it polls (and is
        // woken at once by a new job's NOTIFY).
        burstWhenReadyExceeds: 1,
        pollingIntervalSeconds: pollSeconds,
        notifyPollingIntervalSeconds: pollSeconds,
      },
      async ([job]) => {
        if (job)
          await send({ deliveryId: job.data.deliveryId, jobId: job.id, askedByOwner: job.data.askedByOwner === true });
      },
    );
  }

  private async boot(): Promise<PgBoss> {
    this.boss ??= await createBoss(this.options, this.logger);
    const boss = this.boss;
    await boss.start();
    const queue = {
      notify: true,
      retryLimit: CRASH_RETRIES,
      retryBackoff: true,
      retryDelay: 1,
      retryDelayMax: 60,
      expireInSeconds: this.expireInSeconds,
      // Jobs waiting to run are kept as long as the retry window, and a day more.
      retentionSeconds: Math.ceil(this.options.retryForMs / 1000) + 86_400,
      deleteAfterSeconds: 86_400,
    };
    await boss.createQueue(DELIVERY_QUEUE, queue);
    await boss.updateQueue(DELIVERY_QUEUE, queue); // a changed configuration applies to an existing queue
    return boss;
  }

  async stop(): Promise<void> {
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    if (!this.boss) return;
    // Deliveries in flight finish within their deadline (and are recorded); past it pg-boss
    // fails them back to the queue, and another instance sends them again (same webhook-id).
    await this.boss.stop({ graceful: true, timeout: this.options.timeoutMs + 2_000 });
  }
}
