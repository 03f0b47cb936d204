import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../libs/client/src/schema.js';
import { currentKey, signOut } from './session.js';

export type Schemas = components['schemas'];
export type ApiKey = Schemas['ApiKey'];
export type Account = Schemas['Account'];
export type AuditEntry = Schemas['AuditEntry'];
export type Ban = Schemas['Ban'];
export type DailyUsage = Schemas['DailyUsage'];
export type UsageRow = Schemas['UsageRow'];
export type PlanQuota = Schemas['PlanQuota'];
export type Plan = Schemas['Plan'];
export type Scope = ApiKey['scopes'][number];
export type KeyLimits = Schemas['KeyLimits'];

export const PLANS: readonly Plan[] = ['free', 'pro', 'business', 'enterprise'];
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** A refusal of the API (its Error shape), or of the console itself while it waits out a Retry-After. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** For a 429: when the API accepts requests again (ms since the epoch). */
    readonly retryAt?: number,
  ) {
    super(message);
  }

  /** What to show a person: the API's own message, and for a 429 when to try again. */
  describe(): string {
    if (this.code === 'INSUFFICIENT_SCOPE') {
      return 'This key does not have the admin scope: the console needs an admin key.';
    }
    if (this.retryAt !== undefined) {
      const seconds = Math.max(1, Math.ceil((this.retryAt - Date.now()) / 1000));
      return `${this.message} Try again in ${seconds} s (at ${new Date(this.retryAt).toLocaleTimeString()}).`;
    }
    return this.message;
  }
}

/** Until when the API asked us to wait (Retry-After of its last 429): no request is sent before then. */
let quietUntil = 0;

const session: Middleware = {
  onRequest({ request }) {
    if (Date.now() < quietUntil) {
      throw new ApiFailure(429, 'RATE_LIMIT_EXCEEDED', 'The API asked the console to wait.', quietUntil);
    }
    const key = currentKey();
    if (key !== null) request.headers.set('X-API-Key', key);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) signOut();
    if (response.status === 429) {
      const seconds = Number(response.headers.get('Retry-After') ?? '1');
      quietUntil = Date.now() + (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000;
    }
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(session);

export interface Outcome<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

/** The answer's body, or an `ApiFailure` with the API's code and message. */
export async function call<T>(request: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { code?: unknown; message?: unknown };
  const retryAfter = Number(response.headers.get('Retry-After'));
  throw new ApiFailure(
    response.status,
    typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
    typeof body.message === 'string' ? body.message : `The API answered ${response.status}.`,
    response.status === 429 && Number.isFinite(retryAfter) ? Date.now() + retryAfter * 1000 : undefined,
  );
}

/** The cursor of the `Link: <…>; rel="next"` header of a page, if there is a next page. */
export function nextCursor(response: Response): string | undefined {
  const link = response.headers.get('Link');
  const next = link?.split(',').find((part) => /rel="?next"?/.test(part));
  const url = next && /<([^>]+)>/.exec(next)?.[1];
  return url ? (new URL(url, window.location.origin).searchParams.get('cursor') ?? undefined) : undefined;
}

/** Every page of a list, following rel="next" (the console's lists are small: keys, accounts). */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<Outcome<T[]>>,
  maxPages = 50,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const outcome = await page(cursor);
    items.push(...(await call(Promise.resolve(outcome))));
    cursor = nextCursor(outcome.response);
    if (cursor === undefined) break;
  }
  return items;
}

/** A UTC day, as the usage reports name them. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last `days` UTC days, today included. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  return { from: utcDay(new Date(now.getTime() - (days - 1) * 86_400_000)), to: utcDay(now) };
}
