import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../config/app.config.js';
import { Clock, systemClock } from '../../shared/clock.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { DeliveryRepository, SecretBox, WebhookRepository } from '../domain/ports.js';
import { newSigningSecret } from '../domain/signature.js';
import { rotateSecret } from '../domain/signing-secrets.js';
import { checkUrl, type TargetPolicy } from '../domain/target-rules.js';
import {
  DeliveryNotFoundError,
  WebhookLimitReachedError,
  WebhookNotFoundError,
  WebhookTargetNotAllowedError,
} from '../domain/webhook.errors.js';
import {
  type Delivery,
  MAX_WEBHOOKS_PER_KEY,
  type NewWebhook,
  type Webhook,
  type WebhookPatch,
} from '../domain/webhook.js';

/** A new endpoint and its signing secret, which is shown this once. */
export interface CreatedWebhook {
  readonly webhook: Webhook;
  readonly secret: string;
}

/** An endpoint's new signing secret, shown this once, and when the one it replaced stops signing. */
export interface RotatedSecret {
  readonly secret: string;
  readonly previousSecretExpiresAt: Date;
}

/** Webhook endpoints of one API key: each use case is scoped by the caller's key. */
@Injectable()
export class WebhooksService {
  private readonly policy: TargetPolicy;
  private readonly secretOverlapMs: number;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly secrets: SecretBox,
    private readonly uow: UnitOfWork,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    @Optional() private readonly clock: Clock = systemClock,
  ) {
    this.policy = config.webhooks;
    this.secretOverlapMs = config.webhooks.secretOverlapMs;
  }

  async create(ownerKeyId: number, input: NewWebhook): Promise<CreatedWebhook> {
    this.checkTarget(input.url);
    const secret = newSigningSecret();
    const sealed = this.secrets.seal(secret);
    const webhook = await this.uow.run(async (tx) => {
      if ((await this.webhooks.countForCreation(ownerKeyId, tx)) >= MAX_WEBHOOKS_PER_KEY)
        throw new WebhookLimitReachedError(MAX_WEBHOOKS_PER_KEY);
      return this.webhooks.insert(ownerKeyId, input, sealed, tx);
    });
    return { webhook, secret };
  }

  /**
   * A new secret for the endpoint; the one it replaces goes on signing beside it for
   * WEBHOOKS_SECRET_OVERLAP_MS, so that receivers switch without refusing a delivery.
   * The row stays locked from read to write: concurrent rotations leave two secrets, not three.
   */
  async rotateSecret(ownerKeyId: number, id: number): Promise<RotatedSecret> {
    const secret = newSigningSecret();
    const sealed = this.secrets.seal(secret);
    const rotated = await this.uow.run(async (tx) => {
      const secrets = await this.webhooks.lockSecrets(ownerKeyId, id, tx);
      if (!secrets) throw new WebhookNotFoundError(id);
      const now = this.clock.now();
      const next = rotateSecret(secrets, sealed, now, this.secretOverlapMs);
      await this.webhooks.saveSecrets(id, next, tx);
      return { secrets: next, now };
    });
    return { secret, previousSecretExpiresAt: rotated.secrets.previous?.expiresAt ?? rotated.now };
  }

  list(ownerKeyId: number, page: PageRequest): Promise<Page<Webhook>> {
    return this.webhooks.list(ownerKeyId, page);
  }

  async get(ownerKeyId: number, id: number): Promise<Webhook> {
    const webhook = await this.webhooks.find(ownerKeyId, id);
    if (!webhook) throw new WebhookNotFoundError(id);
    return webhook;
  }

  async update(ownerKeyId: number, id: number, patch: WebhookPatch): Promise<Webhook> {
    if (patch.url !== undefined) {
      await this.get(ownerKeyId, id); // another key's endpoint is 404 before its URL is judged
      this.checkTarget(patch.url);
    }
    const webhook = await this.webhooks.update(ownerKeyId, id, patch);
    if (!webhook) throw new WebhookNotFoundError(id);
    return webhook;
  }

  /** Its queued deliveries are cancelled first (their jobs dropped); one queued meanwhile finds no endpoint and is not sent. */
  async remove(ownerKeyId: number, id: number): Promise<void> {
    await this.get(ownerKeyId, id);
    await this.deliveries.cancelAll(id);
    if (!(await this.webhooks.remove(ownerKeyId, id))) throw new WebhookNotFoundError(id);
  }

  async ping(ownerKeyId: number, id: number): Promise<Delivery> {
    await this.get(ownerKeyId, id);
    return this.deliveries.enqueuePing(id);
  }

  async deliveriesOf(ownerKeyId: number, id: number, page: PageRequest): Promise<Page<Delivery>> {
    await this.get(ownerKeyId, id);
    return this.deliveries.list(id, page);
  }

  async retry(ownerKeyId: number, id: number, deliveryId: number): Promise<Delivery> {
    await this.get(ownerKeyId, id);
    const delivery = await this.deliveries.retry(id, deliveryId);
    if (!delivery) throw new DeliveryNotFoundError(id, deliveryId);
    return delivery;
  }

  /**
   * What the URL alone tells (scheme, port, credentials, a literal address or local-only
   * name). No DNS: a receiver may not be in DNS yet, and the addresses a name resolves to
   * are checked at each delivery, against the address connected to.
   */
  private checkTarget(url: string): void {
    const refusal = checkUrl(url, this.policy);
    if (refusal) throw new WebhookTargetNotAllowedError(refusal);
  }
}
