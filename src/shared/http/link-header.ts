import type { Request, Response } from 'express';
import { encodeCursor } from '../paging/cursor.js';
import type { Page } from '../paging/page.js';

/**
 * Adds `Link: <same path and query, next cursor>; rel="next"` when more results
 * exist, so clients page by following links rather than building URLs.
 */
export function setNextPageLink<T extends { id: number }>(req: Request, res: Response, page: Page<T>): void;
/** For items keyed by something other than `id` (e.g. inventory entries by `petId`). */
export function setNextPageLink<T>(req: Request, res: Response, page: Page<T>, keyOf: (item: T) => number): void;
export function setNextPageLink<T>(req: Request, res: Response, page: Page<T>, keyOf?: (item: T) => number): void {
  const last = page.items.at(-1);
  if (!page.hasMore || last === undefined) return;
  const key = keyOf ? keyOf(last) : (last as T & { id: number }).id;
  res.setHeader('Link', `<${withCursor(req.originalUrl, encodeCursor(key))}>; rel="next"`);
}

/** A path of plain segments (none empty, none `.` or `..`): one that URL parsing leaves as it is. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?$/;
/** `name=value` of characters URLSearchParams serializes as they are (not `~`, which it encodes). */
const PLAIN_PARAM = /^[A-Za-z0-9._-]+=[A-Za-z0-9._-]*$/;

/**
 * `url` (a request target) with its `cursor` parameter set to `cursor`, as
 * `URL.searchParams.set` would give it: the first `cursor` replaced in place and
 * any other dropped, or the parameter appended. Plain targets (every page link a
 * client follows) are handled as strings; anything else goes through `URL`,
 * which normalizes the path and re-encodes the query.
 */
export function withCursor(url: string, cursor: string): string {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const params = mark < 0 || mark === url.length - 1 ? [] : url.slice(mark + 1).split('&');
  if (PLAIN_PATH.test(path) && params.every((param) => PLAIN_PARAM.test(param))) {
    let replaced = false;
    const kept: string[] = [];
    for (const param of params) {
      if (!param.startsWith('cursor=')) kept.push(param);
      else if (!replaced) {
        kept.push(`cursor=${cursor}`);
        replaced = true;
      }
    }
    if (!replaced) kept.push(`cursor=${cursor}`);
    return `${path}?${kept.join('&')}`;
  }
  const parsed = new URL(url, 'http://placeholder');
  parsed.searchParams.set('cursor', cursor);
  return `${parsed.pathname}${parsed.search}`;
}
