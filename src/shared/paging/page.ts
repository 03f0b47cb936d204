/** A keyset page request: ids strictly after `afterId`, ascending, at most `limit`. */
export interface PageRequest {
  readonly limit: number;
  readonly afterId: number | null;
}

/** One page of results and whether more exist after its last item. */
export interface Page<T> {
  readonly items: T[];
  readonly hasMore: boolean;
}

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** Trims a fetch of `limit + 1` rows into a page (the extra row only signals more). */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
