import helmet from 'helmet';
import { apiSecurityHeaders, documentSecurityHeaders, helmetHeaders } from './security-headers.js';

/** Runs real helmet against a response that keeps what was set. */
function setByHelmet(middleware = helmet()): Map<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: () => undefined,
  };
  middleware({} as never, res as never, () => undefined);
  return headers;
}

describe('helmetHeaders', () => {
  it('lists exactly what helmet sets on a response', () => {
    const listed = new Map(helmetHeaders().map(([name, value]) => [name.toLowerCase(), value]));
    expect(listed).toEqual(setByHelmet());
    expect(listed.get('x-content-type-options')).toBe('nosniff');
    expect(listed.has('content-security-policy')).toBe(true);
  });
});

describe('the security headers of the API and of its documentation', () => {
  const lowerCased = (list: ReturnType<typeof apiSecurityHeaders>) =>
    Object.fromEntries(list.map(([name, value]) => [name.toLowerCase(), value]));

  it('gives API answers what an API needs: no document policy but "load nothing, framed by nothing"', () => {
    expect(lowerCased(apiSecurityHeaders())).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
  });

  it("gives the documentation (HTML) helmet's defaults", () => {
    expect(new Map(Object.entries(lowerCased(documentSecurityHeaders())))).toEqual(setByHelmet());
  });
});
