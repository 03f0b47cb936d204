/** The target of `Link: <…>; rel="next"`, or null when there is no next page. */
export function nextLink(header: string | null): string | null {
  for (const part of (header ?? '').split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2] ?? '')) return match[1] ?? null;
  }
  return null;
}

/** The query of a link (relative or absolute) as parameters; a repeated one (`status=a&status=b`) as a list. */
export function queryOf(link: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(link, 'http://link.invalid').searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}
