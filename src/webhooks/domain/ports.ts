import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { SigningSecrets } from './signing-secrets.js';
import type { NewStoreEvent, StoreEvent, StoreEventType } from './store-event.js';
import type { EventViewer } from './visibility.js';
import type { Delivery, NewWebhook, Webhook, WebhookPatch } from './webhook.js';

/** The outbox and the feed over it. */
export interface EventStore {
  /** Appends in the transaction that made the change, in order; ids follow commit order. */
  append(events: readonly NewStoreEvent[], tx: Transaction): Promise<void>;
  page(viewer: EventViewer, types: readonly StoreEventType[] | null, page: PageRequest): Promise<Page<StoreEvent>>;
  /** Deletes events (and their deliveries) older than `before`; returns how many went. */
  sweep(before: Date): Promise<number>;
  /** Age in seconds of the oldest event not yet delivered everywhere it is due (0 when none). */
  oldestUndeliveredAgeSeconds(): Promise<number>;
}
export const EVENT_STORE = Symbol('EventStore');

/** Endpoints, each visible to its owner only. Every method is scoped by the owner's key. */
export interface WebhookRepository {
  /** Serialises a key's creations and counts its endpoints, in `tx`. */
  countForCreation(ownerKeyId: number, tx: Transaction): Promise<number>;
  insert(ownerKeyId: number, webhook: NewWebhook, sealedSecret: string, tx: Transaction): Promise<Webhook>;
  find(ownerKeyId: number, id: number): Promise<Webhook | null>;
  list(ownerKeyId: number, page: PageRequest): Promise<Page<Webhook>>;
  update(ownerKeyId: number, id: number, patch: WebhookPatch): Promise<Webhook | null>;
  remove(ownerKeyId: number, id: number): Promise<boolean>;
  /** The endpoint's signing secrets, locked until `tx` ends; null when the key has no such endpoint. */
  lockSecrets(ownerKeyId: number, id: number, tx: Transaction): Promise<SigningSecrets | null>;
  saveSecrets(id: number, secrets: SigningSecrets, tx: Transaction): Promise<void>;
}
export const WEBHOOK_REPOSITORY = Symbol('WebhookRepository');

/** Deliveries as clients see and steer them. */
export interface DeliveryRepository {
  list(webhookId: number, page: PageRequest): Promise<Page<Delivery>>;
  enqueuePing(webhookId: number): Promise<Delivery>;
  /** Makes the delivery due now with a fresh retry window; null when the endpoint has no such delivery. */
  retry(webhookId: number, deliveryId: number): Promise<Delivery | null>;
  /** Cancels the endpoint's pending deliveries and drops their queued jobs. */
  cancelAll(webhookId: number): Promise<void>;
}
export const DELIVERY_REPOSITORY = Symbol('DeliveryRepository');

/** Encrypts signing secrets at rest: the database alone does not reveal them. */
export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}
export const SECRET_BOX = Symbol('SecretBox');

/** Resolves a host name to its addresses (numeric hosts to themselves); rejects, saying why, when it cannot. */
export interface TargetResolver {
  resolve(host: string): Promise<string[]>;
}
export const TARGET_RESOLVER = Symbol('TargetResolver');
