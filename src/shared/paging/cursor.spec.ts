import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './cursor.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('cursor', () => {
  it('round-trips any safe positive integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
        expect(decodeCursor(encodeCursor(id))).toBe(id);
      }),
    );
  });

  it('round-trips the extremes', () => {
    expect(decodeCursor(encodeCursor(1))).toBe(1);
    expect(decodeCursor(encodeCursor(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('is opaque, URL-safe and short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
        const cursor = encodeCursor(id);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        expect(cursor).not.toBe(String(id));
        expect(encodeURIComponent(cursor)).toBe(cursor);
      }),
    );
  });

  it.each([
    ['empty', ''],
    ['plain text', 'abc'],
    ['a bare id', '42'],
    ['non-URL-safe characters', 'djE6NDI=+/'],
    ['padding', `${b64('v1:42')}=`],
    ['whitespace', ` ${b64('v1:42')}`],
    ['an unknown version', b64('v2:42')],
    ['no version', b64('42')],
    ['zero', b64('v1:0')],
    ['a negative id', b64('v1:-1')],
    ['a leading zero', b64('v1:042')],
    ['a fraction', b64('v1:1.5')],
    ['an exponent', b64('v1:1e3')],
    ['trailing text', b64('v1:42x')],
    ['trailing newline', b64('v1:42\n')],
    ['leading text', b64('xv1:42')],
    ['an unsafe integer', b64('v1:9007199254740992')],
    ['17 digits', b64('v1:12345678901234567')],
    ['oversized', 'A'.repeat(65)],
    ['oversized but valid-looking', b64(`v1:1${' '.repeat(60)}`)],
  ])('rejects %s', (_name, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it('rejects a tampered cursor whose text no longer reads as one of ours', () => {
    const cursor = encodeCursor(42); // "djE6NDI"
    expect(decodeCursor(`x${cursor}`)).toBeNull();
    expect(decodeCursor(`${cursor.slice(0, 2)}Z${cursor.slice(3)}`)).toBeNull();
    expect(decodeCursor(cursor.slice(1))).toBeNull();
  });

  it('never throws and only ever yields null or a safe positive integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String(), fc.string({ unit: 'binary' })), (cursor) => {
        const id = decodeCursor(cursor);
        if (id !== null) {
          expect(Number.isSafeInteger(id)).toBe(true);
          expect(id).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('never decodes garbage from the URL-safe alphabet into an id unless it spells v1:<id>', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (cursor) => {
        const id = decodeCursor(cursor);
        if (id !== null) expect(Buffer.from(cursor, 'base64url').toString('utf8')).toBe(`v1:${id}`);
      }),
    );
  });
});
