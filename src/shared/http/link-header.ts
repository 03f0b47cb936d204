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
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', encodeCursor(key));
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
