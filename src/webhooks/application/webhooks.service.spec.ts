import type { ConfigType } from '@nestjs/config';
import type { appConfig } from '../../config/app.config.js';
import type { Clock } from '../../shared/clock.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import type { DeliveryRepository, SecretBox, WebhookRepository } from '../domain/ports.js';
import { type RetiringSecret, secretsInUse, type SigningSecrets } from '../domain/signing-secrets.js';
import type { TargetPolicy } from '../domain/target-rules.js';
import type { Delivery, NewWebhook, Webhook, WebhookPatch } from '../domain/webhook.js';
import { WebhooksService } from './webhooks.service.js';

class InMemoryWebhooks implements WebhookRepository {
  readonly rows: Array<Webhook & { sealed: string; previous: RetiringSecret | null }> = [];

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
      previous: null,
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
  async lockSecrets(ownerKeyId: number, id: number): Promise<SigningSecrets | null> {
    const row = this.rows.find((w) => w.id === id && w.ownerKeyId === ownerKeyId);
    return row ? { current: row.sealed, previous: row.previous } : null;
  }
  async saveSecrets(id: number, secrets: SigningSecrets): Promise<void> {
    Object.assign(
      this.rows.find((w) => w.id === id)!,
      { sealed: secrets.current, previous: secrets.previous },
    );
  }
  /** What a delivery to the endpoint would be signed with at `now`, opened. */
  signingAt(id: number, now: Date): string[] {
    const row = this.rows.find((w) => w.id === id)!;
    return secretsInUse({ current: row.sealed, previous: row.previous }, now).map((sealed) =>
      reversingBox.open(sealed),
    );
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
const uow: UnitOfWork = { run: (work) => work({} as Transaction) };

const DAY = 86_400_000;

/** A clock the test moves by hand. */
class ManualClock implements Clock {
  private ms = Date.parse('2026-11-27T08:00:00Z');
  readonly now = () => new Date(this.ms);
  advance(ms: number): Date {
    this.ms += ms;
    return this.now();
  }
}

function service(
  webhooks = new InMemoryWebhooks(),
  clock = new ManualClock(),
  secretOverlapMs = DAY,
  deliveries = new NoDeliveries(),
) {
  const policy: TargetPolicy = { allowHttp: false, allowPrivateTargets: false, allowedPorts: [443] };
  const config = { webhooks: { ...policy, secretOverlapMs } } as ConfigType<typeof appConfig>;
  return new WebhooksService(webhooks, deliveries, reversingBox, uow, config, clock);
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
      s.rotateSecret(2, webhook.id),
    ])
      await expect(attempt).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    await expect(s.get(1, webhook.id)).resolves.toMatchObject({ id: webhook.id });
  });

  it("cancels an endpoint's pending deliveries when it is deleted, and only its owner's deletion does", async () => {
    const deliveries = new NoDeliveries();
    const webhooks = new InMemoryWebhooks();
    const s = service(webhooks, undefined, undefined, deliveries);
    const { webhook } = await s.create(1, { url: 'https://shop.example/h', events: ['order.placed'] });
    await expect(s.remove(2, webhook.id)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    expect(deliveries.cancelled).toEqual([]);
    await s.remove(1, webhook.id);
    expect(deliveries.cancelled).toEqual([webhook.id]);
    expect(webhooks.rows).toEqual([]);
  });

  describe('rotateSecret', () => {
    const hook = { url: 'https://shop.example/h', events: ['order.placed' as const] };

    it('returns a new secret once, stored sealed; the old one signs beside it for the overlap, then no more', async () => {
      const webhooks = new InMemoryWebhooks();
      const clock = new ManualClock();
      const s = service(webhooks, clock);
      const { webhook, secret: first } = await s.create(1, hook);
      const rotatedAt = clock.advance(60_000);

      const { secret, previousSecretExpiresAt } = await s.rotateSecret(1, webhook.id);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).not.toBe(first);
      expect(webhooks.rows[0].sealed).not.toBe(secret);
      expect(previousSecretExpiresAt).toEqual(new Date(rotatedAt.getTime() + DAY));
      expect(webhooks.signingAt(webhook.id, rotatedAt)).toEqual([secret, first]);
      expect(webhooks.signingAt(webhook.id, clock.advance(DAY - 1))).toEqual([secret, first]);
      expect(webhooks.signingAt(webhook.id, clock.advance(1))).toEqual([secret]);
    });

    it('keeps at most two secrets: rotating during the overlap keeps the one replaced and drops the older', async () => {
      const webhooks = new InMemoryWebhooks();
      const clock = new ManualClock();
      const s = service(webhooks, clock);
      const { webhook, secret: first } = await s.create(1, hook);
      const { secret: second } = await s.rotateSecret(1, webhook.id);
      const again = clock.advance(3_600_000);
      const { secret: third, previousSecretExpiresAt } = await s.rotateSecret(1, webhook.id);

      expect(webhooks.signingAt(webhook.id, again)).toEqual([third, second]);
      expect(webhooks.signingAt(webhook.id, again)).not.toContain(first);
      expect(previousSecretExpiresAt).toEqual(new Date(again.getTime() + DAY));
      expect(webhooks.signingAt(webhook.id, clock.advance(DAY))).toEqual([third]);
    });

    it('switches at once when the overlap is 0', async () => {
      const webhooks = new InMemoryWebhooks();
      const clock = new ManualClock();
      const s = service(webhooks, clock, 0);
      const { webhook } = await s.create(1, hook);
      const { secret, previousSecretExpiresAt } = await s.rotateSecret(1, webhook.id);
      expect(previousSecretExpiresAt).toEqual(clock.now());
      expect(webhooks.signingAt(webhook.id, clock.now())).toEqual([secret]);
    });

    it("answers WEBHOOK_NOT_FOUND for another key's endpoint and leaves its secret alone", async () => {
      const webhooks = new InMemoryWebhooks();
      const s = service(webhooks);
      const { webhook, secret } = await s.create(1, hook);
      await expect(s.rotateSecret(2, webhook.id)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
      await expect(s.rotateSecret(1, 999)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
      expect(webhooks.signingAt(webhook.id, new Date())).toEqual([secret]);
    });
  });
});
