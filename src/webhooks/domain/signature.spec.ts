import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, newSigningSecret } from './signature.js';

const body = JSON.stringify({ id: 1, type: 'order.placed', data: { orderId: 1 } });

describe('deliveryHeaders', () => {
  it('carries the id and the Unix timestamp in seconds, and verifies with the standardwebhooks package', () => {
    const secret = newSigningSecret();
    const at = new Date();
    const headers = deliveryHeaders([secret], 'evt_1', at, body);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with two secrets, space-separated, each verifying on its own', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = deliveryHeaders([current, previous], 'evt_2', new Date(), body);
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).not.toBe(signatures[1]);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const alone = (signature: string) => ({ ...headers, 'webhook-signature': signature });
    expect(() => new Webhook(current).verify(body, alone(signatures[0]))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, alone(signatures[1]))).not.toThrow();
    expect(() => new Webhook(current).verify(body, alone(signatures[1]))).toThrow();
  });

  it('is refused by a receiver holding another secret, or seeing another body or id', () => {
    const secret = newSigningSecret();
    const headers = deliveryHeaders([secret], 'evt_1', new Date(), '{}');
    expect(() => new Webhook(newSigningSecret()).verify('{}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"x":1}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{}', { ...headers, 'webhook-id': 'evt_2' })).toThrow();
  });

  it('needs a secret', () => {
    expect(() => deliveryHeaders([], 'evt_1', new Date(), '{}')).toThrow(RangeError);
  });
});

describe('newSigningSecret', () => {
  it('makes secrets of 32 random bytes, whsec_-prefixed', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});
