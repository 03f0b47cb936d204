import fc from 'fast-check';
import { validateHeaderValue } from 'node:http';
import { createRequire } from 'node:module';
import { weakEtag } from './weak-etag.js';

/** Express's weak ETag generator, as `app.set('etag', 'weak')` uses it. */
const expressWeakEtag = (
  createRequire(import.meta.url)('express/lib/utils.js') as {
    wetag: (body: string | Buffer, encoding?: BufferEncoding) => string;
  }
).wetag;

describe('weakEtag', () => {
  it.each(['', '[]', '{"id":1,"name":"Rex","categoryId":2,"status":"available"}', 'é✓ 漢字 🐕'])(
    'is the value Express gives %j',
    (body) => {
      expect(weakEtag(body)).toBe(expressWeakEtag(body, 'utf8'));
      expect(weakEtag(Buffer.from(body))).toBe(expressWeakEtag(Buffer.from(body)));
    },
  );

  it('is the value Express gives for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (body) => weakEtag(body) === expressWeakEtag(body, 'utf8')));
  });

  it('is always a valid header value (the JSON reply sends it unchecked)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (body) => {
        expect(() => validateHeaderValue('ETag', weakEtag(body))).not.toThrow();
      }),
    );
  });

  it('differs when the body does', () => {
    expect(weakEtag('[{"id":1}]')).not.toBe(weakEtag('[{"id":2}]'));
  });
});
