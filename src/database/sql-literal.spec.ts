import fc from 'fast-check';
import pg from 'pg';
import { quoteLiteral } from './sql-literal.js';

describe('quoteLiteral', () => {
  it("writes any string as pg's escapeLiteral does", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", '\\', '"', 'a', 'é', '\n', '$', '€', '😀') }), (text) => {
        expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text))),
    );
  });

  it('quotes the usual cases', () => {
    expect(quoteLiteral('')).toBe("''");
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('{"a":"\\"q\\""}')).toBe(` E'{"a":"\\\\"q\\\\""}'`);
  });
});
