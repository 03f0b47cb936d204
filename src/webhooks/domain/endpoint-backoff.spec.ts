import { BUSY_RETRY_MS, decideSend, endpointVerdict } from './endpoint-backoff.js';

const now = new Date('2026-11-27T08:00:00.000Z');
const later = new Date(now.getTime() + 4_000);
const earlier = new Date(now.getTime() - 1);
const queued = { endpointConcurrency: 1, askedByOwner: false, attempts: 0 };

describe('decideSend', () => {
  it('sends when the endpoint has a free slot and no backoff (or one that is over)', () => {
    expect(decideSend({ inFlight: 0, backoffUntil: null, probed: false, retrying: false, now }, queued)).toEqual({
      send: true,
    });
    expect(decideSend({ inFlight: 0, backoffUntil: earlier, probed: false, retrying: false, now }, queued)).toEqual({
      send: true,
    });
    expect(decideSend({ inFlight: 0, backoffUntil: now, probed: false, retrying: false, now }, queued)).toEqual({
      send: true,
    });
    expect(
      decideSend(
        { inFlight: 1, backoffUntil: null, probed: false, retrying: false, now },
        { ...queued, endpointConcurrency: 2 },
      ),
    ).toEqual({
      send: true,
    });
  });

  it('waits until the backoff ends while the endpoint backs off, parked while another delivery will try it', () => {
    expect(decideSend({ inFlight: 0, backoffUntil: later, probed: true, retrying: false, now }, queued)).toEqual({
      send: false,
      why: 'parked',
    });
    // No other delivery has a job: this one tries the endpoint when the backoff ends.
    expect(decideSend({ inFlight: 0, backoffUntil: later, probed: false, retrying: false, now }, queued)).toEqual({
      send: false,
      why: 'backing off',
      at: later,
    });
  });

  it('once the backoff is over and until a 2xx, parks a first attempt while a failed delivery waits for its retry', () => {
    const failing = { inFlight: 0, backoffUntil: earlier, probed: true, retrying: true, now };
    expect(decideSend(failing, queued)).toEqual({ send: false, why: 'parked' });
    expect(decideSend(failing, { ...queued, attempts: 1 })).toEqual({ send: true }); // the retry goes
    expect(decideSend({ ...failing, retrying: false }, queued)).toEqual({ send: true });
    expect(decideSend({ ...failing, backoffUntil: null }, queued)).toEqual({ send: true }); // answered since
  });

  it('lets what the owner asked for through the backoff, not through a full endpoint', () => {
    const owner = { ...queued, askedByOwner: true };
    expect(decideSend({ inFlight: 0, backoffUntil: later, probed: true, retrying: false, now }, owner)).toEqual({
      send: true,
    });
    expect(
      decideSend({ inFlight: 1, backoffUntil: later, probed: false, retrying: false, now }, owner, () => 0),
    ).toEqual({
      send: false,
      at: new Date(now.getTime() + BUSY_RETRY_MS),
      why: 'busy',
    });
  });

  it('tries a busy endpoint again 250 to 500 ms later', () => {
    const at = (random: number) => {
      const decision = decideSend(
        { inFlight: 1, backoffUntil: null, probed: false, retrying: false, now },
        queued,
        () => random,
      );
      return decision.send || decision.why === 'parked' ? null : decision.at.getTime() - now.getTime();
    };
    expect([at(0), at(0.5), at(1 - Number.EPSILON)]).toEqual([250, 375, 500]);
  });
});

describe('endpointVerdict', () => {
  it('ends the backoff on a 2xx and starts one until the next attempt on any other failure', () => {
    expect(endpointVerdict({ sent: true, ok: true, gone: false }, later)).toBe('answered');
    expect(endpointVerdict({ sent: true, ok: false, gone: false }, later)).toEqual({ backOffUntil: later });
  });

  it('leaves it alone for an attempt not sent (a secret that cannot be opened) and a 410 (which disables)', () => {
    expect(endpointVerdict({ sent: false, ok: false, gone: false }, later)).toBe('unchanged');
    expect(endpointVerdict({ sent: true, ok: false, gone: true }, later)).toBe('unchanged');
  });
});
