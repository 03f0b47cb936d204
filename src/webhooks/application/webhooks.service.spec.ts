import type { ConfigType } from '@nestjs/config';
import type { appConfig } from '../../config/app.config.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import type { DeliveryRepository, SecretBox, WebhookRepository } from '../domain/ports.js';
import type { TargetPolicy } from '../domain/target-rules.js';
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

const noDeliveries: DeliveryRepository = {
  list: async () => ({ items: [], hasMore: false }),
  enqueuePing: async (webhookId) => ({ id: 1, webhookId }) as Delivery,
  retry: async () => null,
};
const reversingBox: SecretBox = {
  seal: (s) => [...s].reverse().join(''),
  open: (s) => [...s].reverse().join(''),
};
const uow: UnitOfWork = { run: (work) => work({} as Transaction) };

function service(webhooks = new InMemoryWebhooks()) {
  const policy: TargetPolicy = { allowHttp: false, allowPrivateTargets: false, allowedPorts: [443] };
  const config = { webhooks: policy } as ConfigType<typeof appConfig>;
  return new WebhooksService(webhooks, noDeliveries, reversingBox, uow, config);
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
    ['a private address spelt as one number', 'https://167837953/h'],
    ['a local-only name', 'https://printer.local/h'],
    ['a port not allowed', 'https://shop.example:8443/h'],
  ])('refuses %s with WEBHOOK_TARGET_NOT_ALLOWED', async (_name, url) => {
    await expect(service().create(1, { url, events: ['order.placed'] })).rejects.toMatchObject({
      code: 'WEBHOOK_TARGET_NOT_ALLOWED',
    });
  });

  it('accepts a name without resolving it (a receiver may not be in DNS yet; deliveries check its addresses)', async () => {
    await expect(
      service().create(1, { url: 'https://not-in-dns-yet.example/h', events: ['order.placed'] }),
    ).resolves.toBeDefined();
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
});
