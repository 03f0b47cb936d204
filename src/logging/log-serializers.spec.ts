import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { requestJson, serializeRequest } from './log-serializers.js';
import { redactHeaders, redactText } from './redaction.js';
import { redactionProneText } from '../../test/support/redaction-prone-text.js';

const KEY = 'psk_live_0123456789abcdef0123456789abcdef';

/** A request as Node gives it: `headers` made from `rawHeaders` (names lower-cased, repeats joined). */
function request(rawHeaders: string[], socket: object | undefined, url = '/pets?id=1'): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  return { url, socket, rawHeaders, headers } as unknown as IncomingMessage;
}

/**
 * As a request line is written: the JSON of `serializeRequest` with every header redactHeaders would redact
 * (pino's `redact` censors the credential headers serializeRequest leaves to it alike), redacted as a whole.
 */
const expected = (req: IncomingMessage): string =>
  redactText(JSON.stringify({ ...serializeRequest(req), headers: redactHeaders(req.headers) }));

/** Where a part's redaction could differ from the whole's. */
const tricky = redactionProneText(KEY);

describe('requestJson', () => {
  const name = fc.constantFrom('Host', 'X-Api-Key', 'Authorization', 'Referer', 'X-Note', 'x-note', 'Cookie', 'Accept');
  const value = fc.oneof(
    fc.string(),
    tricky,
    fc.constantFrom(KEY, `see ${KEY}`, '/pets?token=abc&id=1', 'a "quoted" \\ value', 'password=hunter2', '\u2028'),
  );
  const rawHeaders = fc.array(fc.tuple(name, value), { maxLength: 6 }).map((pairs) => pairs.flat());

  it('is the JSON of serializeRequest redacted as a whole, whatever the headers, URL and address', () => {
    fc.assert(
      fc.property(
        rawHeaders,
        fc.oneof(fc.string(), tricky),
        fc.option(tricky, { nil: undefined }),
        (raw, url, address) => {
          const req = request(raw, { remoteAddress: address }, url);
          expect(requestJson(req)).toBe(expected(req));
        },
      ),
    );
  });

  it('logs each request of a connection as its own headers say, whether they repeat or change', () => {
    fc.assert(
      fc.property(fc.array(rawHeaders, { minLength: 1, maxLength: 8 }), (sequence) => {
        const socket = { remoteAddress: '::1' };
        for (const raw of [...sequence, ...sequence]) {
          const req = request(raw, socket);
          const json = requestJson(req);
          expect(json).toBe(expected(req));
          expect(json).not.toContain(KEY.slice(4));
        }
      }),
    );
  });

  it('redacts a key sent as X-Request-Id like any header holding a key', () => {
    const socket = { remoteAddress: '::1' };
    for (let i = 0; i < 2; i += 1) {
      const req = request(['Host', 'h', 'X-Request-Id', KEY], socket);
      expect(requestJson(req)).toBe(
        '{"url":"/pets?id=1","remoteAddress":"::1","headers":{"host":"h","x-request-id":"[Redacted]"}}',
      );
    }
  });

  it('leaves out the address of a request without one, as JSON.stringify does', () => {
    const req = request(['Host', 'h'], undefined);
    expect(requestJson(req)).toBe('{"url":"/pets?id=1","headers":{"host":"h"}}');
  });
});
