import { inlineValues } from './prepared-sql.js';

describe('inlineValues', () => {
  it('replaces each placeholder by its value as a quoted literal', () => {
    expect(inlineValues('SELECT f($1, $2, $3, $4)', [7, 'x', null, undefined])).toBe("SELECT f('7', 'x', NULL, NULL)");
  });

  it('reads two-digit placeholders whole', () => {
    const values = Array.from({ length: 11 }, (_, i) => i + 1);
    expect(inlineValues('$1 $10 $11', values)).toBe("'1' '10' '11'");
  });

  it('gives dates as ISO instants and booleans and bigints as text', () => {
    expect(inlineValues('$1 $2 $3', [new Date('2026-12-01T09:00:00.000Z'), true, 12n])).toBe(
      "'2026-12-01T09:00:00.000Z' 'true' '12'",
    );
  });

  it('escapes quotes and backslashes, so a value never ends its literal', () => {
    expect(inlineValues('$1', ["it's"])).toBe("'it''s'");
    expect(inlineValues('$1', ['a\\b'])).toBe(" E'a\\\\b'");
  });

  it('refuses a missing value and a value it cannot write as a literal', () => {
    expect(() => inlineValues('$1 $2', [1])).toThrow(RangeError);
    expect(() => inlineValues('$1', [{ a: 1 }])).toThrow(TypeError);
  });
});

describe('inlineValues, the same text again', () => {
  it('inlines each call its own values', () => {
    const text = 'SELECT $2, $1, $2 FROM t WHERE a = $1';
    expect(inlineValues(text, [1, 'b'])).toBe("SELECT 'b', '1', 'b' FROM t WHERE a = '1'");
    expect(inlineValues(text, [2, "c'd"])).toBe("SELECT 'c''d', '2', 'c''d' FROM t WHERE a = '2'");
  });

  it('keeps text without placeholders as it is, and refuses a missing value every time', () => {
    expect(inlineValues('COMMIT', [])).toBe('COMMIT');
    expect(() => inlineValues('$1 $2', [1])).toThrow(RangeError);
    expect(() => inlineValues('$1 $2', [1])).toThrow('no value for $2');
  });
});
