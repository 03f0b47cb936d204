import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { SigningSecrets } from './signing-secrets.js';
import type { NewStoreEvent, StoreEvent, StoreEventType } from './store-event.js';
import type { EventViewer } from './visibility.js';
import type { Delivery, NewWebhook, Webhook, WebhookPatch } from './webhook.js';

/** The outbox and the feed over it. */
export abstract class EventStore {
  /** Appends in the transaction that made the change, in order; ids follow commit order. */
  abstract append(events: readonly NewStoreEvent[], tx: Transaction): Promise<void>;
  abstract page(
    viewer: EventViewer,
    types: readonly StoreEventType[] | null,
    page: PageRequest,
  ): Promise<Page<StoreEvent>>;
  /** Deletes events (and their deliveries) older than `before`; returns how many went. */
  abstract sweep(before: Date): Promise<number>;
  /** Age in seconds of the oldest event not yet delivered everywhere it is due (0 when none). */
  abstract oldestUndeliveredAgeSeconds(): Promise<number>;
}

/** Endpoints, each visible to its owner only. Every method is scoped by the owner's key. */
export abstract class WebhookRepository {
  /** Serialises a key's creations and counts its endpoints, in `tx`. */
  abstract countForCreation(ownerKeyId: number, tx: Transaction): Promise<number>;
  abstract insert(ownerKeyId: number, webhook: NewWebhook, sealedSecret: string, tx: Transaction): Promise<Webhook>;
  abstract find(ownerKeyId: number, id: number): Promise<Webhook | null>;
  abstract list(ownerKeyId: number, page: PageRequest): Promise<Page<Webhook>>;
  abstract update(ownerKeyId: number, id: number, patch: WebhookPatch): Promise<Webhook | null>;
  abstract remove(ownerKeyId: number, id: number): Promise<boolean>;
  /** The endpoint's signing secrets, locked until `tx` ends; null when the key has no such endpoint. */
  abstract lockSecrets(ownerKeyId: number, id: number, tx: Transaction): Promise<SigningSecrets | null>;
  abstract saveSecrets(id: number, secrets: SigningSecrets, tx: Transaction): Promise<void>;
}

/** Deliveries as clients see and steer them. */
export abstract class DeliveryRepository {
  abstract list(webhookId: number, page: PageRequest): Promise<Page<Delivery>>;
  abstract enqueuePing(webhookId: number): Promise<Delivery>;
  /** Makes the delivery due now with a fresh retry window; null when the endpoint has no such delivery. */
  abstract retry(webhookId: number, deliveryId: number): Promise<Delivery | null>;
  /** Cancels the endpoint's pending deliveries and drops their queued jobs. */
  abstract cancelAll(webhookId: number): Promise<void>;
}

/** Encrypts signing secrets at rest: the database alone does not reveal them. */
export abstract class SecretBox {
  abstract seal(secret: string): string;
  abstract open(sealed: string): string;
}

/** Resolves a host name to its addresses (numeric hosts to themselves); rejects, saying why, when it cannot. */
export abstract class TargetResolver {
  abstract resolve(host: string): Promise<string[]>;
}
