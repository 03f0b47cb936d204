import type { Request, Response } from 'express';
import { encodeCursor } from '../paging/cursor.js';
import type { Page } from '../paging/page.js';

/**
 * Adds `Link: <same path and query, next cursor>; rel="next"` when more results
 * exist, so clients page by following links rather than building URLs.
 */
export function setNextPageLink<T>(
  req: Request,
  res: Response,
  page: Page<T>,
  keyOf: (item: T) => number = (item) => (item as { id: number }).id,
): void {
  const last = page.items.at(-1);
  if (!page.hasMore || last === undefined) return;
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', encodeCursor(keyOf(last)));
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
