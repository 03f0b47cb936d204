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
import type { EndpointState, SendDecision } from '../domain/endpoint-backoff.js';
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
  askedByOwner: false,
  traceParent: null,
  ...patch,
});
const JOB: DeliveryJob = { deliveryId: 7, jobId: 'job-7', askedByOwner: false };

/**
 * One delivery and its endpoint, as the store keeps them: the endpoint's state is
 * what `claim` shows the decision; a move gives the delivery a new job, parking
 * takes it away (and nothing else), as the store's contract says.
 */
class FakeStore implements DeliveryStore {
  readonly recorded: AttemptOutcome[] = [];
  readonly moves: Array<{ at?: Date; why: string }> = [];
  endpoint: Omit<EndpointState, 'now'> = { inFlight: 0, backoffUntil: null, probed: false, retrying: false };
  constructor(private delivery: DueDelivery | null) {}
  due = async (job: DeliveryJob) =>
    this.delivery?.jobId === job.jobId ? { ...this.delivery, askedByOwner: job.askedByOwner } : null;
  claim = async (delivery: DueDelivery, decide: (endpoint: EndpointState) => SendDecision) => {
    const decision = decide({ ...this.endpoint, now: new Date() });
    if (decision.send) return true;
    this.moves.push(decision.why === 'parked' ? { why: decision.why } : { at: decision.at, why: decision.why });
    if (this.delivery)
      this.delivery = { ...this.delivery, jobId: decision.why === 'parked' ? '' : `${delivery.jobId}-moved` };
    return false;
  };
  record = async (outcome: AttemptOutcome) => {
    this.recorded.push(outcome);
    const verdict = outcome.endpoint;
    if (verdict === 'answered') this.endpoint = { ...this.endpoint, backoffUntil: null };
    else if (verdict !== 'unchanged') this.endpoint = { ...this.endpoint, backoffUntil: verdict.backOffUntil };
    return outcome.disable;
  };
  /** The delivery as stored now. */
  get stored(): DueDelivery | null {
    return this.delivery;
  }
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
const policy = {
  endpointConcurrency: 1,
  retryBaseMs: 1_000,
  retryMaxMs: 60_000,
  retryForMs: 3_600_000,
  disableAfterMs: 86_400_000,
};

function sender(store: DeliveryStore, transport: WebhookTransport) {
  const config = { webhooks: policy } as unknown as ConfigType<typeof appConfig>;
  return new DeliverySender(store, transport, box, metrics, config);
}

describe('DeliverySender', () => {
  it('sends the message with the three Standard Webhooks headers and records the success', async () => {
    const store = new FakeStore(due());
    const transport = new FakeTransport();
    await sender(store, transport).deliver(JOB);
    const [sent] = transport.sent;
    expect(sent.url).toBe('https://shop.example/hook');
    expect(sent.headers['webhook-id']).toBe('evt_42');
    expect(verify(SECRET, sent.body, sent.headers)).toEqual({ id: 42, type: 'order.placed' });
    expect(store.recorded).toEqual([expect.objectContaining({ ok: true, statusCode: 204, retryInMs: null })]);
  });

  it('sends nothing for a job that is no longer its delivery’s current one', async () => {
    const store = new FakeStore(due({ jobId: 'job-8' }));
    const transport = new FakeTransport();
    await sender(store, transport).deliver(JOB);
    expect(transport.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
  });

  it('schedules a retry within the backoff ceiling after a failure (full jitter)', async () => {
    const store = new FakeStore(due({ attempts: 2 }));
    await sender(store, new FakeTransport({ ok: false, statusCode: 500, error: 'HTTP 500' })).deliver(JOB);
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
    ).deliver(JOB);
    expect(store.recorded[0].retryInMs).toBe(30_000);
  });

  it('gives up once the retry window is spent: the delivery fails for good', async () => {
    const store = new FakeStore(due({ attempts: 9, elapsedMs: 3_600_001 }));
    await sender(store, new FakeTransport({ ok: false, statusCode: 500, error: 'HTTP 500' })).deliver(JOB);
    expect(store.recorded[0]).toMatchObject({ ok: false, retryInMs: null });
    expect(metrics.outcomes.at(-1)).toBe('failed');
  });

  it('disables the endpoint on 410 Gone, without a retry', async () => {
    const store = new FakeStore(due());
    await sender(store, new FakeTransport({ ok: false, statusCode: 410, error: 'HTTP 410', gone: true })).deliver(JOB);
    expect(store.recorded[0]).toMatchObject({ retryInMs: null, disable: GONE_REASON });
  });

  it('fails a delivery whose secret cannot be opened, without sending it, and retries it later', async () => {
    const store = new FakeStore(due({ secrets: { current: 'v1.sealed-under-another-key', previous: null } }));
    const transport = new FakeTransport();
    await sender(store, transport).deliver(JOB);
    expect(transport.sent).toEqual([]);
    expect(store.recorded[0]).toMatchObject({ ok: false, error: 'the signing secret cannot be opened' });
    expect(store.recorded[0].retryInMs).not.toBeNull();
  });
});

describe('DeliverySender and the endpoint’s backoff', () => {
  const failing = () => new FakeTransport({ ok: false, statusCode: 500, error: 'HTTP 500' });
  const inOneMinute = () => new Date(Date.now() + 60_000);

  it('backs the endpoint off until the failed delivery’s next attempt', async () => {
    const store = new FakeStore(due());
    const before = Date.now();
    await sender(
      store,
      new FakeTransport({ ok: false, statusCode: 503, error: 'HTTP 503', retryAfterMs: 30_000 }),
    ).deliver(JOB);
    const [outcome] = store.recorded;
    expect(outcome.retryInMs).toBe(30_000);
    const { backOffUntil } = outcome.endpoint as { backOffUntil: Date };
    expect(backOffUntil.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    expect(backOffUntil.getTime()).toBeLessThanOrEqual(Date.now() + 30_000); // not after the retry's job
  });

  it('backs the endpoint off after any failed attempt: a timeout, a 3xx, a refused target', async () => {
    for (const answer of [
      { statusCode: null, error: 'timed out after 5000 ms' },
      { statusCode: 302, error: 'HTTP 302' },
      { statusCode: null, error: 'the target 127.0.0.1 is not allowed' },
    ]) {
      const store = new FakeStore(due());
      await sender(store, new FakeTransport({ ok: false, ...answer })).deliver(JOB);
      expect(store.recorded[0].endpoint).toEqual({ backOffUntil: expect.any(Date) });
    }
  });

  it('backs the endpoint off even when the delivery fails for good (its window is spent)', async () => {
    const store = new FakeStore(due({ attempts: 9, elapsedMs: 3_600_001 }));
    await sender(store, failing()).deliver(JOB);
    expect(store.recorded[0]).toMatchObject({ retryInMs: null, endpoint: { backOffUntil: expect.any(Date) } });
  });

  it('sends nothing for a job of an endpoint that backs off: the delivery is parked, no attempt', async () => {
    const store = new FakeStore(due({ attempts: 1, elapsedMs: 5_000 }));
    store.endpoint = { inFlight: 0, backoffUntil: inOneMinute(), probed: true, retrying: false };
    const transport = new FakeTransport();
    await sender(store, transport).deliver(JOB);
    expect(transport.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
    expect(store.moves).toEqual([{ why: 'parked' }]);
    expect(store.stored).toMatchObject({ attempts: 1, elapsedMs: 5_000, jobId: '' });
  });

  it('moves the delivery to the backoff’s end when no other delivery of the endpoint will try it', async () => {
    const store = new FakeStore(due({ attempts: 1, elapsedMs: 5_000 }));
    const until = inOneMinute();
    store.endpoint = { inFlight: 0, backoffUntil: until, probed: false, retrying: false };
    const transport = new FakeTransport();
    await sender(store, transport).deliver(JOB);
    expect(transport.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
    expect(store.moves).toEqual([{ at: until, why: 'backing off' }]);
    expect(store.stored).toMatchObject({ attempts: 1, elapsedMs: 5_000, jobId: 'job-7-moved' });
  });

  it('after a failure, the endpoint’s next delivery waits for the failed one’s retry', async () => {
    const store = new FakeStore(due({ deliveryId: 7 }));
    await sender(store, failing()).deliver(JOB);
    const { backOffUntil } = store.recorded[0].endpoint as { backOffUntil: Date };
    const next = new FakeStore(due({ deliveryId: 8, jobId: 'job-8' }));
    next.endpoint = { ...store.endpoint, probed: false, retrying: false };
    const transport = new FakeTransport();
    await sender(next, transport).deliver({ deliveryId: 8, jobId: 'job-8', askedByOwner: false });
    expect(transport.sent).toEqual([]);
    expect(next.moves).toEqual([{ at: backOffUntil, why: 'backing off' }]);
  });

  it('once the backoff is over, sends the failed delivery’s retry and parks a first attempt until a 2xx', async () => {
    const over = { inFlight: 0, backoffUntil: new Date(Date.now() - 1), probed: true, retrying: true };
    const first = new FakeStore(due({ attempts: 0 }));
    first.endpoint = over;
    const transport = new FakeTransport();
    await sender(first, transport).deliver(JOB);
    expect(first.moves).toEqual([{ why: 'parked' }]);
    const retry = new FakeStore(due({ attempts: 1 }));
    retry.endpoint = over;
    await sender(retry, transport).deliver(JOB);
    expect(transport.sent).toHaveLength(1);
    expect(retry.endpoint.backoffUntil).toBeNull();
  });

  it('sends what the owner asked for (a retry, a ping) at once, and a 2xx ends the backoff', async () => {
    const store = new FakeStore(due());
    store.endpoint = { inFlight: 0, backoffUntil: inOneMinute(), probed: true, retrying: false };
    const transport = new FakeTransport();
    await sender(store, transport).deliver({ ...JOB, askedByOwner: true });
    expect(transport.sent).toHaveLength(1);
    expect(store.recorded[0].endpoint).toBe('answered');
    expect(store.endpoint.backoffUntil).toBeNull();
  });

  it('moves a delivery whose endpoint has no free slot to a moment later, even one the owner asked for', async () => {
    const store = new FakeStore(due());
    store.endpoint = { inFlight: 1, backoffUntil: null, probed: true, retrying: false };
    const transport = new FakeTransport();
    const before = Date.now();
    await sender(store, transport).deliver({ ...JOB, askedByOwner: true });
    expect(transport.sent).toEqual([]);
    expect(store.moves).toEqual([{ at: expect.any(Date), why: 'busy' }]);
    const at = store.moves[0].at?.getTime() ?? NaN;
    expect(at - before).toBeGreaterThanOrEqual(250);
    expect(at - Date.now()).toBeLessThanOrEqual(500);
  });

  it('leaves the backoff as it is for a secret that cannot be opened (our fault) and a 410 (it disables)', async () => {
    const broken = new FakeStore(due({ secrets: { current: 'v1.sealed-under-another-key', previous: null } }));
    await sender(broken, new FakeTransport()).deliver(JOB);
    const gone = new FakeStore(due());
    await sender(gone, new FakeTransport({ ok: false, statusCode: 410, error: 'HTTP 410', gone: true })).deliver(JOB);
    expect([broken.recorded[0].endpoint, gone.recorded[0].endpoint]).toEqual(['unchanged', 'unchanged']);
  });
});

describe('DeliverySender during a secret rotation', () => {
  const older = newSigningSecret();
  const rotated = (expiresAt: Date) =>
    due({ secrets: { current: `sealed:${SECRET}`, previous: { sealed: `sealed:${older}`, expiresAt } } });

  it('signs with the new secret and the replaced one while the overlap lasts, each verifying on its own', async () => {
    const transport = new FakeTransport();
    await sender(new FakeStore(rotated(new Date(Date.now() + 60_000))), transport).deliver(JOB);
    const [{ headers, body }] = transport.sent;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(SECRET, body, headers)).toEqual(JSON.parse(body));
    expect(verify(older, body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with the new secret only once the overlap is over', async () => {
    const transport = new FakeTransport();
    await sender(new FakeStore(rotated(new Date(Date.now() - 1))), transport).deliver(JOB);
    const [{ headers, body }] = transport.sent;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(SECRET, body, headers)).toEqual(JSON.parse(body));
    expect(() => verify(older, body, headers)).toThrow();
  });
});
