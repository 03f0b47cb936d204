import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { isCredentialName, looksLikeKey, REDACTED, redactHeaders, redactText, redactUrl } from './redaction.js';

const KEY = 'psk_Ab3dEf6hIj9lMn2pQr5tUv8xYz1_-bCdEfGhIjKlMnO';
const R = REDACTED;

describe('looksLikeKey', () => {
  it.each([KEY, `Bearer ${KEY}`, `a, ${KEY}`, 'psk%5Fabc', 'psk%5fabc'])('finds a key in %s', (value) => {
    expect(looksLikeKey(value)).toBe(true);
  });

  it.each(['', 'pskabc', 'psk-abc', 'curl/8.5.0', 'application/json', 'PSK_abc'])('finds none in %s', (value) => {
    expect(looksLikeKey(value)).toBe(false);
  });
});

describe('isCredentialName', () => {
  it.each([
    'x-api-key',
    'api-key',
    'api_key',
    'apiKey',
    'APIKEY',
    'key',
    'x-api-token',
    'x-auth-token',
    'access_token',
    'authorization',
    'proxy-authorization',
    'client_secret',
    'password',
    'passwd',
    'x-session-id',
    'sessionid',
    'cookie',
    'signature',
    'x-credentials',
    'sig',
    'x-amz-sig',
    'pwd',
    'pass',
    'jwt',
    'sid',
    'api%5Fkey',
    'ap%69_k%65y',
  ])('%s: yes', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each([
    'host',
    'accept',
    'accept-encoding',
    'user-agent',
    'content-type',
    'x-request-id',
    'referer',
    'if-none-match',
    'x-forwarded-for',
    'status',
    'limit',
    'cursor',
    'categoryId',
    'petId',
    'design',
    'passage',
    'side',
    '%zz',
  ])('%s: no', (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
});

describe('isCredentialName, once many names were seen', () => {
  it('answers as before for names past its memory', () => {
    for (let i = 0; i < 1000; i++) isCredentialName(`x-name-${i}`);
    expect(isCredentialName('x-never-seen-token')).toBe(true);
    expect(isCredentialName('x-never-seen-name')).toBe(false);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/pets', '/pets'],
    ['/pets?status=available&limit=2', '/pets?status=available&limit=2'],
    ['/pets?api_key=s3cret', `/pets?api_key=${R}`],
    ['/pets?limit=1&apiKey=s3cret&status=sold', `/pets?limit=1&apiKey=${R}&status=sold`],
    ['/pets?token=a&token=b', `/pets?token=${R}&token=${R}`],
    ['/pets?api%5Fkey=s3cret', `/pets?api%5Fkey=${R}`],
    [`/pets?q=${KEY}`, `/pets?q=${R}`],
    [`/pets?q=x${KEY.replace('_', '%5F')}`, `/pets?q=${R}`],
    [`/pets?${KEY}`, `/pets?${R}`],
    [`/pets?${KEY}=1`, `/pets?${R}`],
    ['/pets?token', '/pets?token'],
    ['/pets?', '/pets?'],
    [`/pets/${KEY}`, `/pets/${R}`],
    [`/nope/${KEY}/more?limit=1`, `/nope/${R}/more?limit=1`],
    [`https://example.com/app?tab=2&access_token=s3cret`, `https://example.com/app?tab=2&access_token=${R}`],
    [`https://example.com/${KEY}/page`, `https://example.com/${R}/page`],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('returns the very same string when nothing is redacted', () => {
    const url = '/pets?status=available&limit=2';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('redactHeaders', () => {
  it('redacts credential names and key-shaped values, keeps the rest', () => {
    const headers: IncomingHttpHeaders = {
      host: 'localhost',
      'user-agent': 'curl/8.5.0',
      'x-api-key': KEY,
      'api-key': 's3cret',
      'x-auth-token': 's3cret',
      'x-debug': `note ${KEY}`,
      'x-note': `harmless, ${KEY}`,
      referer: 'https://example.com/app?tab=2&api_key=s3cret',
      'x-other': 'https://example.com/?q=1',
      'set-cookie': ['a=1', 'b=2'],
      'x-list': ['harmless', KEY],
    };
    expect(redactHeaders(headers)).toEqual({
      host: 'localhost',
      'user-agent': 'curl/8.5.0',
      'x-api-key': R,
      'api-key': R,
      'x-auth-token': R,
      'x-debug': R,
      'x-note': R,
      referer: `https://example.com/app?tab=2&api_key=${R}`,
      'x-other': 'https://example.com/?q=1',
      'set-cookie': R,
      'x-list': R,
    });
    expect(headers['x-api-key']).toBe(KEY); // the request itself is untouched
  });

  it('returns the very same object when nothing is redacted', () => {
    const headers: IncomingHttpHeaders = { host: 'localhost', accept: '*/*', 'x-request-id': 'trace-1' };
    expect(redactHeaders(headers)).toBe(headers);
  });

  it('copies headers as Node gives them (no prototype) in their order, undefined values included', () => {
    const headers = Object.assign(Object.create(null) as IncomingHttpHeaders, {
      host: 'localhost',
      'x-api-key': KEY,
      absent: undefined,
      accept: '*/*',
    });
    const copy = redactHeaders(headers);
    expect(Object.entries(copy)).toEqual([
      ['host', 'localhost'],
      ['x-api-key', R],
      ['absent', undefined],
      ['accept', '*/*'],
    ]);
    expect(JSON.stringify(copy)).toBe(`{"host":"localhost","x-api-key":"${R}","accept":"*/*"}`);
  });
});

describe('redactText', () => {
  it.each([
    ['GET /pets?limit=1 -> 500 INTERNAL_ERROR', 'GET /pets?limit=1 -> 500 INTERNAL_ERROR'],
    ['GET /pets?token=s3cret&limit=1 -> 500', `GET /pets?token=${R}&limit=1 -> 500`],
    ['password=hunter2 in pg_hba.conf', `password=${R} in pg_hba.conf`],
    [`invalid input syntax for type bigint: "${KEY}"`, `invalid input syntax for type bigint: "${R}"`],
    [`at /pets/${KEY}/x`, `at /pets/${R}/x`],
    ['a = b, x=1', 'a = b, x=1'],
  ])('%s → %s', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });
});

describe('redactText over a whole JSON log line', () => {
  it('replaces every key token and credential value, whichever field holds it', () => {
    const line = `{"msg":"GET /x?token=abc&limit=1 -> 500","err":{"message":"bad ${KEY} and psk%5Fxyz-1"},"reqId":"r"}`;
    expect(redactText(line)).toBe(
      `{"msg":"GET /x?token=${R}&limit=1 -> 500","err":{"message":"bad ${R} and ${R}"},"reqId":"r"}`,
    );
  });

  it('returns the very same string when nothing is redacted', () => {
    const line = '{"msg":"GET /pets 200","req":{"url":"/pets?limit=2&cursor=djE6Mg"}}';
    expect(redactText(line)).toBe(line);
  });
});

/**
 * The rules as first written (a regular expression per character, a split per
 * query), as the oracle for the implementation's cheaper scans.
 */
const reference = {
  nameChar: /[\w.%-]/,
  valueEnd: /[\s&#"'<>\\,;]/,
  key: /psk(?:_|%5[fF])/,
  param(this: void, param: string): string {
    const equals = param.indexOf('=');
    const name = equals === -1 ? param : param.slice(0, equals);
    if (reference.key.test(name)) return R;
    if (equals === -1) return param;
    return isCredentialName(name) || reference.key.test(param) ? `${name}=${R}` : param;
  },
  url(url: string): string {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const safePath = path
      .split('/')
      .map((segment) => (reference.key.test(segment) ? R : segment))
      .join('/');
    return query === -1
      ? safePath
      : `${safePath}?${url
          .slice(query + 1)
          .split('&')
          .map(reference.param)
          .join('&')}`;
  },
  text(text: string): string {
    const keyless = text.replace(/psk(?:_|%5[fF])[\w%-]*/g, R);
    let out = '';
    let copied = 0;
    for (let equals = keyless.indexOf('='); equals !== -1; equals = keyless.indexOf('=', equals + 1)) {
      let start = equals;
      while (start > 0 && equals - start < 100 && reference.nameChar.test(keyless[start - 1])) start--;
      if (start === equals || !isCredentialName(keyless.slice(start, equals))) continue;
      let end = equals + 1;
      while (end < keyless.length && !reference.valueEnd.test(keyless[end])) end++;
      if (end === equals + 1) continue;
      out += `${keyless.slice(copied, equals + 1)}${R}`;
      copied = end;
      equals = end - 1;
    }
    return copied === 0 ? keyless : out + keyless.slice(copied);
  },
};

describe('redaction, against the rules as first written', () => {
  const pieces = fc.constantFrom(
    ...['psk_', 'psk%5F', 'psk%5f', 'psk', 'PSK_', 'token', 'key', 'api_key', 'limit', 'id', 'pass', 'a.sig'],
    ...['=', '&', '?', '/', '%', '-', '.', '_', ' ', '\t', '\u00a0', '\u2003', '"', "'", ',', ';', '#', '\\'],
    ...['x', '1', 'é', '\u{1F600}', 'abc', '2026'],
  );
  const text = fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join(''));

  it('redacts URLs and free text exactly as the rules say', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(looksLikeKey(value)).toBe(reference.key.test(value));
        expect(redactUrl(value)).toBe(reference.url(value));
        expect(redactText(value)).toBe(reference.text(value));
      }),
      { numRuns: 3_000 },
    );
  });
});
