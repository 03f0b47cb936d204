import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../config/app.config.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import {
  DELIVERY_REPOSITORY,
  type DeliveryRepository,
  SECRET_BOX,
  type SecretBox,
  TARGET_RESOLVER,
  type TargetResolver,
  WEBHOOK_REPOSITORY,
  type WebhookRepository,
} from '../domain/ports.js';
import { newSigningSecret } from '../domain/signature.js';
import { checkAddresses, checkUrl, type TargetPolicy } from '../domain/target-rules.js';
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

/** Webhook endpoints of one API key: each use case is scoped by the caller's key. */
@Injectable()
export class WebhooksService {
  private readonly policy: TargetPolicy;

  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(DELIVERY_REPOSITORY) private readonly deliveries: DeliveryRepository,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(TARGET_RESOLVER) private readonly resolver: TargetResolver,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.policy = config.webhooks;
  }

  async create(ownerKeyId: number, input: NewWebhook): Promise<CreatedWebhook> {
    await this.checkTarget(input.url);
    const secret = newSigningSecret();
    const sealed = this.secrets.seal(secret);
    const webhook = await this.uow.run(async (tx) => {
      if ((await this.webhooks.countForCreation(ownerKeyId, tx)) >= MAX_WEBHOOKS_PER_KEY)
        throw new WebhookLimitReachedError(MAX_WEBHOOKS_PER_KEY);
      return this.webhooks.insert(ownerKeyId, input, sealed, tx);
    });
    return { webhook, secret };
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
      await this.checkTarget(patch.url);
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

  /** The URL's form, then every address its host resolves to now (checked again at each delivery). */
  private async checkTarget(url: string): Promise<void> {
    const refusal = checkUrl(url, this.policy);
    if (refusal) throw new WebhookTargetNotAllowedError(refusal);
    const host = new URL(url).hostname;
    const refused = checkAddresses(host, await this.resolver.resolve(host), this.policy);
    if (refused) throw new WebhookTargetNotAllowedError(refused);
  }
}
