import type { ConfigType } from '@nestjs/config';
import { Webhook as Verifier } from 'standardwebhooks';
import type { appConfig } from '../../config/app.config.js';
import type {
  AttemptOutcome,
  DeliveryJob,
  DeliveryStore,
  DueDelivery,
  TransportResult,
  WebhookTransport,
} from '../domain/dispatch.js';
import type { SecretBox } from '../domain/ports.js';
import { newSigningSecret } from '../domain/signature.js';
import type { WebhookMetrics } from '../domain/webhook-metrics.js';
import { DeliverySender, GONE_REASON } from './delivery-sender.js';

const SECRET = newSigningSecret();
const verify = (secret: string, body: string, headers: Record<string, string>) =>
  new Verifier(secret.slice('whsec_'.length)).verify(body, headers);

const due = (patch: Partial<DueDelivery> = {}): DueDelivery => ({
  deliveryId: 7,
  webhookId: 3,
  jobId: 'job-7',
  url: 'https://shop.example/hook',
  secrets: { current: `sealed:${SECRET}`, previous: null },
  messageId: 'evt_42',
  body: '{"id":42,"type":"order.placed"}',
  attempts: 0,
  elapsedMs: 0,
  ...patch,
});

class FakeStore implements DeliveryStore {
  readonly recorded: AttemptOutcome[] = [];
  constructor(private readonly delivery: DueDelivery | null) {}
  due = async (job: DeliveryJob) => (this.delivery?.jobId === job.jobId ? this.delivery : null);
  record = async (outcome: AttemptOutcome) => {
    this.recorded.push(outcome);
    return outcome.disable;
  };
}

class FakeTransport implements WebhookTransport {
  readonly sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  constructor(private readonly answer: Partial<TransportResult> = {}) {}
  post = async (url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult> => {
    this.sent.push({ url, headers: { ...headers }, body });
    return { ok: true, statusCode: 204, error: null, durationMs: 12, gone: false, retryAfterMs: null, ...this.answer };
  };
}

/** Opens `sealed:<secret>`; anything else cannot be opened (as a secret sealed under another key). */
const box: SecretBox = {
  seal: (s) => `sealed:${s}`,
  open: (s) => {
    if (!s.startsWith('sealed:')) throw new Error('Unsupported state or unable to authenticate data');
    return s.slice('sealed:'.length);
  },
};
const metrics: WebhookMetrics & { outcomes: string[] } = {
  outcomes: [],
  attempt(outcome) {
    this.outcomes.push(outcome);
  },
};
const policy = { retryBaseMs: 1_000, retryMaxMs: 60_000, retryForMs: 3_600_000, disableAfterMs: 86_400_000 };

function sender(store: DeliveryStore, transport: WebhookTransport) {
  const config = { webhooks: policy } as unknown as ConfigType<typeof appConfig>;
  return new DeliverySender(store, transport, box, metrics, config);
}

describe('DeliverySender', () => {
  it('sends the message with the three Standard Webhooks headers and records the success', async () => {
    const store = new FakeStore(due());
    const transport = new FakeTransport();
    await sender(store, transport).deliver({ deliveryId: 7, jobId: 'job-7' });
    const [sent] = transport.sent;
    expect(sent.url).toBe('https://shop.example/hook');
    expect(sent.headers['webhook-id']).toBe('evt_42');
    expect(verify(SECRET, sent.body, sent.headers)).toEqual({ id: 42, type: 'order.placed' });
    expect(store.recorded).toEqual([expect.objectContaining({ ok: true, statusCode: 204, retryInMs: null })]);
  });

  it('sends nothing for a job that is no longer its delivery’s current one', async () => {
    const store = new FakeStore(due({ jobId: 'job-8' }));
    const transport = new FakeTransport();
    await sender(store, transport).deliver({ deliveryId: 7, jobId: 'job-7' });
    expect(transport.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
  });

  it('schedules a retry within the backoff ceiling after a failure (full jitter)', async () => {
    const store = new FakeStore(due({ attempts: 2 }));
    await sender(store, new FakeTransport({ ok: false, statusCode: 500, error: 'HTTP 500' })).deliver({
      deliveryId: 7,
      jobId: 'job-7',
    });
    const [outcome] = store.recorded;
    expect(outcome).toMatchObject({ ok: false, statusCode: 500, disable: null });
    expect(outcome.retryInMs).toBeGreaterThanOrEqual(0);
    expect(outcome.retryInMs).toBeLessThan(4_000); // third failure: [0, 1 s · 2²)
  });

  it("waits what a 503's Retry-After asks", async () => {
    const store = new FakeStore(due());
    await sender(
      store,
      new FakeTransport({ ok: false, statusCode: 503, error: 'HTTP 503', retryAfterMs: 30_000 }),
    ).deliver({ deliveryId: 7, jobId: 'job-7' });
    expect(store.recorded[0].retryInMs).toBe(30_000);
  });

  it('gives up once the retry window is spent: the delivery fails for good', async () => {
    const store = new FakeStore(due({ attempts: 9, elapsedMs: 3_600_001 }));
    await sender(store, new FakeTransport({ ok: false, statusCode: 500, error: 'HTTP 500' })).deliver({
      deliveryId: 7,
      jobId: 'job-7',
    });
    expect(store.recorded[0]).toMatchObject({ ok: false, retryInMs: null });
    expect(metrics.outcomes.at(-1)).toBe('failed');
  });

  it('disables the endpoint on 410 Gone, without a retry', async () => {
    const store = new FakeStore(due());
    await sender(store, new FakeTransport({ ok: false, statusCode: 410, error: 'HTTP 410', gone: true })).deliver({
      deliveryId: 7,
      jobId: 'job-7',
    });
    expect(store.recorded[0]).toMatchObject({ retryInMs: null, disable: GONE_REASON });
  });

  it('fails a delivery whose secret cannot be opened, without sending it, and retries it later', async () => {
    const store = new FakeStore(due({ secrets: { current: 'v1.sealed-under-another-key', previous: null } }));
    const transport = new FakeTransport();
    await sender(store, transport).deliver({ deliveryId: 7, jobId: 'job-7' });
    expect(transport.sent).toEqual([]);
    expect(store.recorded[0]).toMatchObject({ ok: false, error: 'the signing secret cannot be opened' });
    expect(store.recorded[0].retryInMs).not.toBeNull();
  });
});

describe('DeliverySender during a secret rotation', () => {
  const older = newSigningSecret();
  const rotated = (expiresAt: Date) =>
    due({ secrets: { current: `sealed:${SECRET}`, previous: { sealed: `sealed:${older}`, expiresAt } } });

  it('signs with the new secret and the replaced one while the overlap lasts, each verifying on its own', async () => {
    const transport = new FakeTransport();
    await sender(new FakeStore(rotated(new Date(Date.now() + 60_000))), transport).deliver({
      deliveryId: 7,
      jobId: 'job-7',
    });
    const [{ headers, body }] = transport.sent;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(SECRET, body, headers)).toEqual(JSON.parse(body));
    expect(verify(older, body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with the new secret only once the overlap is over', async () => {
    const transport = new FakeTransport();
    await sender(new FakeStore(rotated(new Date(Date.now() - 1))), transport).deliver({
      deliveryId: 7,
      jobId: 'job-7',
    });
    const [{ headers, body }] = transport.sent;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(SECRET, body, headers)).toEqual(JSON.parse(body));
    expect(() => verify(older, body, headers)).toThrow();
  });
});
