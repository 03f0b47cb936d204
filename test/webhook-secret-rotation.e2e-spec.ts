import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { eventually } from './support/eventually.js';
import { KEY } from './support/http.js';
import { issueStoreKey, type StoreKey } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { type Receiver, type ReceivedMessage, startReceiver } from './support/webhook-receiver.mjs';

/** Short, so that the test sees the overlap end; long enough for a ping to be delivered inside it. */
const OVERLAP_MS = 3_000;
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

/**
 * POST /webhooks/{webhookId}/rotate-secret over HTTP with a real receiver: the new
 * secret is shown once; deliveries carry two signatures (new, old) that each verify
 * with `standardwebhooks` under their own secret until the old one expires, then the
 * new one only; rotating again keeps two secrets, never three.
 */
describe('webhook secret rotation (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let alice: StoreKey;
  let bob: StoreKey;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      WEBHOOKS_DISPATCHER: 'true',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: 'any', // the receiver listens on a random port
      WEBHOOKS_POLL_INTERVAL_MS: '50',
      WEBHOOKS_SECRET_OVERLAP_MS: String(OVERLAP_MS),
    });
    await t.reset();
    alice = await issueStoreKey(t, ['read', 'write']);
    bob = await issueStoreKey(t, ['read', 'write']);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function register(path: string): Promise<{ id: number; secret: string }> {
    const res = await request(t.http)
      .post('/webhooks')
      .set(KEY, alice.secret)
      .send({ url: `${receiver.url}${path}`, events: ['order.placed'] })
      .expect(201);
    return res.body;
  }

  const rotate = (id: number, key = alice) =>
    request(t.http).post(`/webhooks/${id}/rotate-secret`).set(KEY, key.secret);

  /** Sends a ping through the dispatcher and returns it as the receiver got it. */
  async function ping(id: number, path: string): Promise<ReceivedMessage> {
    const before = receiver.received.filter((m) => m.path === path).length;
    await request(t.http).post(`/webhooks/${id}/test`).set(KEY, alice.secret).expect(202);
    await eventually(() => receiver.received.filter((m) => m.path === path).length > before);
    return receiver.received.filter((m) => m.path === path)[before];
  }

  const headers = (m: ReceivedMessage, signature = m.signature) => ({
    'webhook-id': m.id,
    'webhook-timestamp': m.timestamp,
    'webhook-signature': signature,
  });
  const verifies = (m: ReceivedMessage, secret: string, signature?: string) => {
    try {
      new Webhook(secret).verify(m.body, headers(m, signature));
      return true;
    } catch {
      return false;
    }
  };

  it('signs with both secrets during the overlap, each verifying on its own, then with the new one only', async () => {
    const { id, secret: old } = await register('/rotated');
    const res = await rotate(id).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['previousSecretExpiresAt', 'secret']);
    const { secret, previousSecretExpiresAt } = res.body as { secret: string; previousSecretExpiresAt: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(old);
    const expiresAt = Date.parse(previousSecretExpiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(0);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(OVERLAP_MS);

    const during = await ping(id, '/rotated');
    const [first, second, ...more] = during.signature.split(' ');
    expect(more).toEqual([]);
    expect(verifies(during, secret, first)).toBe(true);
    expect(verifies(during, old, second)).toBe(true);
    expect(verifies(during, old, first)).toBe(false);
    expect(verifies(during, secret)).toBe(true);
    expect(verifies(during, old)).toBe(true);

    await sleep(Math.max(0, expiresAt - Date.now() + 100));
    const after = await ping(id, '/rotated');
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(verifies(after, secret)).toBe(true);
    expect(verifies(after, old)).toBe(false);
  });

  it('keeps two secrets when rotated again during the overlap: the new one and the one it replaced', async () => {
    const { id, secret: first } = await register('/twice');
    const second = (await rotate(id).expect(200)).body.secret as string;
    const third = (await rotate(id).expect(200)).body.secret as string;
    const message = await ping(id, '/twice');
    expect(message.signature.split(' ')).toHaveLength(2);
    expect(verifies(message, third)).toBe(true);
    expect(verifies(message, second)).toBe(true);
    expect(verifies(message, first)).toBe(false);
  });

  it('keeps the secrets sealed in the database', async () => {
    const { id } = await register('/sealed');
    const { secret } = (await rotate(id).expect(200)).body as { secret: string };
    const [row] = await t.db.query(`SELECT secret_sealed, previous_secret_sealed FROM webhooks WHERE id = $1`, [id]);
    const raw = secret.slice('whsec_'.length);
    expect(row.secret_sealed).not.toContain(raw.slice(0, 16));
    expect(row.previous_secret_sealed).toMatch(/^v1\./);
  });

  it("answers 404 WEBHOOK_NOT_FOUND for another key's endpoint or none, 400 for a malformed id, 403 without the write scope", async () => {
    const { id } = await register('/mine');
    expect((await rotate(id, bob).expect(404)).body).toEqual(errorBody('WEBHOOK_NOT_FOUND', 404));
    expect((await rotate(999_999).expect(404)).body).toEqual(errorBody('WEBHOOK_NOT_FOUND', 404));
    await request(t.http).post('/webhooks/abc/rotate-secret').set(KEY, alice.secret).expect(400);
    const reader = await issueStoreKey(t, ['read']);
    await rotate(id, reader).expect(403);
    // The refused attempts rotated nothing.
    const [row] = await t.db.query(`SELECT previous_secret_sealed FROM webhooks WHERE id = $1`, [id]);
    expect(row.previous_secret_sealed).toBeNull();
  });
});
