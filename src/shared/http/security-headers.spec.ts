import helmet from 'helmet';
import { helmetHeaders } from './security-headers.js';

/** Runs real helmet against a response that keeps what was set. */
function setByHelmet(): Map<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: () => undefined,
  };
  helmet()({} as never, res as never, () => undefined);
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
