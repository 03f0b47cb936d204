import fc from 'fast-check';
import { nestsDeeperThan } from './json-depth.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the bound and not beyond', () => {
    expect(nestsDeeperThan(bytes(nested(32)), 32)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(33)), 32)).toBe(true);
    expect(nestsDeeperThan(bytes(`{"a":${nested(31)}}`), 32)).toBe(false);
    expect(nestsDeeperThan(bytes(`{"a":${nested(32)}}`), 32)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":'.repeat(40) + '1' + '}'.repeat(40)), 32)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ name: '['.repeat(100) })), 32)).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify({ name: '\\"' + '{'.repeat(100) })), 32)).toBe(false);
  });

  it('agrees with the depth of any JSON value', () => {
    const depthOf = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 12 }), (value, bound) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(bytes(text), bound)).toBe(depthOf(value) > bound);
      }),
    );
  });
});
