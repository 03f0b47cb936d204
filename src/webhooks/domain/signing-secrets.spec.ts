import { rotateSecret, secretsInUse, type SigningSecrets } from './signing-secrets.js';

const DAY = 86_400_000;
const t0 = new Date('2026-11-27T08:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('signing secrets', () => {
  const fresh: SigningSecrets = { current: 'a', previous: null };

  it('signs with the current secret alone before any rotation', () => {
    expect(secretsInUse(fresh, t0)).toEqual(['a']);
  });

  it('signs with the new secret and the replaced one until the overlap ends, then with the new one only', () => {
    const rotated = rotateSecret(fresh, 'b', t0, DAY);
    expect(rotated).toEqual({ current: 'b', previous: { sealed: 'a', expiresAt: at(DAY) } });
    expect(secretsInUse(rotated, t0)).toEqual(['b', 'a']);
    expect(secretsInUse(rotated, at(DAY - 1))).toEqual(['b', 'a']);
    expect(secretsInUse(rotated, at(DAY))).toEqual(['b']);
  });

  it('keeps at most two: rotating again during the overlap drops the oldest and restarts the overlap', () => {
    const twice = rotateSecret(rotateSecret(fresh, 'b', t0, DAY), 'c', at(1_000), DAY);
    expect(twice).toEqual({ current: 'c', previous: { sealed: 'b', expiresAt: at(1_000 + DAY) } });
    expect(secretsInUse(twice, at(2_000))).toEqual(['c', 'b']);
  });

  it('switches at once with no overlap', () => {
    const rotated = rotateSecret(fresh, 'b', t0, 0);
    expect(rotated).toEqual({ current: 'b', previous: null });
    expect(secretsInUse(rotated, t0)).toEqual(['b']);
  });
});
