/** What a GET's last full answer was: its ETag, body and content type. */
interface Cached {
  readonly etag: string;
  readonly body: string;
  readonly contentType: string | null;
}

/**
 * Conditional GETs for a client that asks for them (`conditionalGets`): a GET whose URL
 * answered with an `ETag` is sent again with `If-None-Match`, and a 304 — which the
 * service does not charge to the key's quota — is handed back as a 200 with the cached
 * body and the 304's own headers (so the rate-limit headers are fresh). The newest
 * `maxEntries` URLs are kept (one client is one key: the URL is the whole cache key).
 */
export class EtagCache {
  private readonly entries = new Map<string, Cached>();

  constructor(private readonly maxEntries = 256) {}

  /** Adds `If-None-Match` to a GET the cache holds an answer for (unless the caller set one). */
  onRequest(request: Request): Request | undefined {
    if (request.method !== 'GET' || request.headers.has('If-None-Match')) return undefined;
    const cached = this.entries.get(request.url);
    if (!cached) return undefined;
    const headers = new Headers(request.headers);
    headers.set('If-None-Match', cached.etag);
    return new Request(request, { headers });
  }

  /** Keeps a full answer that has an ETag; turns a 304 into the cached answer. */
  async onResponse(request: Request, response: Response): Promise<Response | undefined> {
    if (request.method !== 'GET') return undefined;
    const cached = this.entries.get(request.url);
    if (response.status === 304 && cached) {
      this.remember(request.url, cached); // most recently used
      const headers = new Headers(response.headers);
      if (cached.contentType) headers.set('Content-Type', cached.contentType);
      return new Response(cached.body, { status: 200, statusText: 'OK', headers });
    }
    const etag = response.headers.get('ETag');
    if (response.status !== 200 || !etag) return undefined;
    const body = await response.clone().text();
    this.remember(request.url, { etag, body, contentType: response.headers.get('Content-Type') });
    return undefined;
  }

  private remember(url: string, cached: Cached): void {
    this.entries.delete(url);
    this.entries.set(url, cached);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
