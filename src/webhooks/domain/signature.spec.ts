import { Webhook as Verifier } from 'standardwebhooks';
import { newSigningSecret, signatureHeader } from './signature.js';

describe('signatureHeader', () => {
  it('is verified by the standardwebhooks package', () => {
    const secret = newSigningSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ id: 1, type: 'order.placed', data: { orderId: 1 } });
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secret, 'evt_1', timestamp, body),
    };
    expect(new Verifier(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('matches the package signing the same message', () => {
    const secret = newSigningSecret();
    const at = new Date('2026-11-21T10:00:00Z');
    const expected = new Verifier(secret).sign('evt_9', at, '{"a":1}');
    expect(signatureHeader(secret, 'evt_9', at.getTime() / 1000, '{"a":1}')).toBe(expected);
  });

  it('is refused by a receiver holding another secret or seeing another body', () => {
    const secret = newSigningSecret();
    const ts = Math.floor(Date.now() / 1000);
    const sig = signatureHeader(secret, 'evt_1', ts, '{}');
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': sig };
    expect(() => new Verifier(newSigningSecret()).verify('{}', headers)).toThrow();
    expect(() => new Verifier(secret).verify('{"x":1}', headers)).toThrow();
  });

  it('makes secrets of 32 random bytes, whsec_-prefixed', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});
