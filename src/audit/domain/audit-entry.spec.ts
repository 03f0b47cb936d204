import { auditValue, changesBetween, isEmptyChange } from './audit-entry.js';

interface Key {
  name: string;
  plan: string;
  hash: string;
  scopes: string[];
  limits: { perMinute: number; perDay: number } | null;
  expiresAt: Date | null;
}

const key: Key = {
  name: 'app',
  plan: 'free',
  hash: 'a'.repeat(64),
  scopes: ['read'],
  limits: null,
  expiresAt: null,
};
const FIELDS = ['name', 'plan', 'scopes', 'limits', 'expiresAt'] as const;

describe('changesBetween', () => {
  it('lists only the allowed fields that changed, as [before, after]', () => {
    const after = { ...key, plan: 'enterprise', hash: 'b'.repeat(64), limits: { perMinute: 5, perDay: 50 } };
    expect(changesBetween(key, after, FIELDS)).toEqual({
      plan: ['free', 'enterprise'],
      limits: [null, { perMinute: 5, perDay: 50 }],
    });
  });

  it('never shows a field outside the allow-list, even when it changed', () => {
    const changes = changesBetween(key, { ...key, hash: 'c'.repeat(64) }, FIELDS);
    expect(changes).toEqual({});
    expect(isEmptyChange(changes)).toBe(true);
  });

  it('shows a created record as [null, value] for each field it has, and dates as ISO strings', () => {
    const created = { ...key, expiresAt: new Date('2027-06-30T00:00:00Z') };
    expect(changesBetween(null, created, FIELDS)).toEqual({
      name: [null, 'app'],
      plan: [null, 'free'],
      scopes: [null, ['read']],
      expiresAt: [null, '2027-06-30T00:00:00.000Z'],
    });
  });

  it('compares arrays and objects by value', () => {
    expect(changesBetween(key, { ...key, scopes: ['read'] }, FIELDS)).toEqual({});
    expect(changesBetween(key, { ...key, scopes: ['read', 'write'] }, FIELDS)).toEqual({
      scopes: [['read'], ['read', 'write']],
    });
  });
});

describe('auditValue', () => {
  it('keeps JSON values, turns dates into ISO strings and anything else into null', () => {
    expect(auditValue({ a: [1, 'x', true, null, undefined], d: new Date(0) })).toEqual({
      a: [1, 'x', true, null, null],
      d: '1970-01-01T00:00:00.000Z',
    });
    expect(auditValue(() => 1)).toBeNull();
    expect(auditValue(undefined)).toBeNull();
  });
});
