import type { Response } from 'supertest';
import request from 'supertest';

/** The header that carries API keys. */
export const KEY = 'X-API-Key';

/** An event as `GET /events` lists it. */
export interface FeedEvent {
  id: number;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * Asserts the contract of every failure (API.md section 7): the given status, a body
 * that is exactly `{code, message, status}` with `status` equal to the HTTP status,
 * `Content-Type: application/json`, and an `X-Request-Id` header.
 */
export function expectError(res: Response, status: number, code?: string): void {
  const context = `${res.status} ${String(res.text).slice(0, 300)}`;
  expect({ context, status: res.status }).toEqual({ context, status });
  expect(res.headers['content-type']).toMatch(/^application\/json\b/);
  expect(Object.keys(res.body as object).sort()).toEqual(['code', 'message', 'status']);
  expect(res.body).toEqual({
    code: code ?? expect.stringMatching(/^[A-Z][A-Z_]*$/),
    message: expect.any(String),
    status,
  });
  expect((res.body as { message: string }).message.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
}

/**
 * The same checks as {@link expectError} as a predicate for property-based tests:
 * null when `res` is a well-formed failure, else what is wrong with it.
 */
export function errorShapeProblem(res: Response): string | null {
  const body: unknown = res.body;
  if (!/^application\/json\b/.test(String(res.headers['content-type']))) {
    return `content-type ${String(res.headers['content-type'])}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `body ${res.text}`;
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,message,status') return `body keys ${keys}`;
  const { code, message, status } = body as Record<string, unknown>;
  if (typeof code !== 'string' || !/^[A-Z][A-Z_]*$/.test(code)) return `code ${String(code)}`;
  if (typeof message !== 'string' || message.length === 0) return `message ${String(message)}`;
  if (status !== res.status) return `status field ${String(status)} for HTTP ${res.status}`;
  if (typeof res.headers['x-request-id'] !== 'string') return 'no X-Request-Id';
  return null;
}

/** The target of `Link: <…>; rel="next"`, or null when the header has no next link. */
export function nextLink(res: Response): string | null {
  const header = res.headers.link;
  if (typeof header !== 'string') return null;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;\s*rel="?next"?$/.exec(part.trim());
    if (match) return match[1];
  }
  return null;
}

/**
 * Follows `rel="next"` links from `path` to the last page and returns every page
 * (bounded, so a link loop fails instead of hanging).
 */
export async function followPages(
  http: Parameters<typeof request>[0],
  key: string,
  path: string,
  maxPages = 200,
): Promise<Response[]> {
  const pages: Response[] = [];
  let next: string | null = path;
  while (next !== null) {
    if (pages.length >= maxPages) throw new Error(`more than ${maxPages} pages from ${path}`);
    const res: Response = await request(http).get(next).set(KEY, key);
    expect({ url: next, status: res.status }).toEqual({ url: next, status: 200 });
    pages.push(res);
    next = nextLink(res);
  }
  return pages;
}

/** Sends `text` verbatim as an application/json body (supertest would otherwise re-encode it). */
export function rawJson(test: request.Test, text: string): request.Test {
  return test.set('Content-Type', 'application/json').send(text);
}
