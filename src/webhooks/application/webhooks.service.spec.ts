import type { ConfigType } from '@nestjs/config';
import type { appConfig } from '../../config/app.config.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import type { DeliveryRepository, SecretBox, TargetResolver, WebhookRepository } from '../domain/ports.js';
import type { Delivery, NewWebhook, Webhook, WebhookPatch } from '../domain/webhook.js';
import { WebhooksService } from './webhooks.service.js';

class InMemoryWebhooks implements WebhookRepository {
  readonly rows: Array<Webhook & { sealed: string }> = [];

  async countForCreation(ownerKeyId: number): Promise<number> {
    return this.rows.filter((w) => w.ownerKeyId === ownerKeyId).length;
  }
  async insert(ownerKeyId: number, input: NewWebhook, sealed: string): Promise<Webhook> {
    const row = {
      id: this.rows.length + 1,
      ownerKeyId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdAt: new Date(),
      sealed,
    };
    this.rows.push(row);
    return row;
  }
  async find(ownerKeyId: number, id: number): Promise<Webhook | null> {
    return this.rows.find((w) => w.id === id && w.ownerKeyId === ownerKeyId) ?? null;
  }
  async list(ownerKeyId: number, page: PageRequest): Promise<Page<Webhook>> {
    const mine = this.rows.filter((w) => w.ownerKeyId === ownerKeyId && w.id > (page.afterId ?? 0));
    return toPage(mine.slice(0, page.limit + 1), page.limit);
  }
  async update(ownerKeyId: number, id: number, patch: WebhookPatch): Promise<Webhook | null> {
    const row = this.rows.find((w) => w.id === id && w.ownerKeyId === ownerKeyId);
    if (!row) return null;
    Object.assign(row, patch);
    return row;
  }
  async remove(ownerKeyId: number, id: number): Promise<boolean> {
    const index = this.rows.findIndex((w) => w.id === id && w.ownerKeyId === ownerKeyId);
    if (index >= 0) this.rows.splice(index, 1);
    return index >= 0;
  }
}

/** Deliveries of no endpoint; records which endpoints had theirs cancelled. */
class NoDeliveries implements DeliveryRepository {
  readonly cancelled: number[] = [];
  list = async () => ({ items: [], hasMore: false });
  enqueuePing = async (webhookId: number) => ({ id: 1, webhookId }) as Delivery;
  retry = async () => null;
  cancelAll = async (webhookId: number) => {
    this.cancelled.push(webhookId);
  };
}
const reversingBox: SecretBox = {
  seal: (s) => [...s].reverse().join(''),
  open: (s) => [...s].reverse().join(''),
};
const hosts: Record<string, string[]> = {
  'shop.example': ['93.184.216.34'],
  'evil.example': ['93.184.216.34', '10.0.0.5'],
};
const resolver: TargetResolver = { resolve: async (host) => hosts[host] ?? (/^[\d.]+$/.test(host) ? [host] : []) };
const uow: UnitOfWork = { run: (work) => work({} as Transaction) };

function service(webhooks = new InMemoryWebhooks(), deliveries = new NoDeliveries()) {
  const config = { webhooks: { allowHttp: false, allowPrivateTargets: false } } as ConfigType<typeof appConfig>;
  return new WebhooksService(webhooks, deliveries, reversingBox, resolver, uow, config);
}

describe('WebhooksService', () => {
  it('returns the secret once and stores it sealed', async () => {
    const webhooks = new InMemoryWebhooks();
    const { webhook, secret } = await service(webhooks).create(1, {
      url: 'https://shop.example/h',
      events: ['order.placed'],
    });
    expect(secret).toMatch(/^whsec_/);
    expect(webhooks.rows[0].sealed).not.toBe(secret);
    expect(reversingBox.open(webhooks.rows[0].sealed)).toBe(secret);
    expect(webhook).not.toHaveProperty('secret');
  });

  it('refuses an 11th endpoint of a key, not of another key', async () => {
    const s = service();
    for (let i = 0; i < 10; i++) await s.create(1, { url: `https://shop.example/${i}`, events: ['order.placed'] });
    await expect(s.create(1, { url: 'https://shop.example/x', events: ['order.placed'] })).rejects.toMatchObject({
      code: 'WEBHOOK_LIMIT_REACHED',
    });
    await expect(s.create(2, { url: 'https://shop.example/x', events: ['order.placed'] })).resolves.toBeDefined();
  });

  it.each([
    ['http', 'http://shop.example/h'],
    ['a private address', 'https://10.1.1.1/h'],
    ['a name with a private address among its answers', 'https://evil.example/h'],
    ['a name that does not resolve', 'https://nowhere.example/h'],
  ])('refuses %s with WEBHOOK_TARGET_NOT_ALLOWED', async (_name, url) => {
    await expect(service().create(1, { url, events: ['order.placed'] })).rejects.toMatchObject({
      code: 'WEBHOOK_TARGET_NOT_ALLOWED',
    });
  });

  it("answers WEBHOOK_NOT_FOUND for another key's endpoint, before judging a new URL", async () => {
    const s = service();
    const { webhook } = await s.create(1, { url: 'https://shop.example/h', events: ['order.placed'] });
    for (const attempt of [
      s.get(2, webhook.id),
      s.update(2, webhook.id, { url: 'https://10.0.0.1/' }),
      s.remove(2, webhook.id),
      s.ping(2, webhook.id),
      s.deliveriesOf(2, webhook.id, { limit: 10, afterId: null }),
    ])
      await expect(attempt).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    await expect(s.get(1, webhook.id)).resolves.toMatchObject({ id: webhook.id });
  });

  it("cancels an endpoint's pending deliveries when it is deleted, and only its owner's deletion does", async () => {
    const deliveries = new NoDeliveries();
    const webhooks = new InMemoryWebhooks();
    const s = service(webhooks, deliveries);
    const { webhook } = await s.create(1, { url: 'https://shop.example/h', events: ['order.placed'] });
    await expect(s.remove(2, webhook.id)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    expect(deliveries.cancelled).toEqual([]);
    await s.remove(1, webhook.id);
    expect(deliveries.cancelled).toEqual([webhook.id]);
    expect(webhooks.rows).toEqual([]);
  });
});
