import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { TransportResult, WebhookTransport } from '../domain/dispatch.js';
import type { TargetResolver } from '../domain/ports.js';
import { checkAddresses, checkUrl, type TargetPolicy } from '../domain/target-rules.js';

/** Response bytes read at most (the status is what counts; the rest is drained no further). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs with node's http/https: no redirects followed (a 3xx is a failure), a
 * deadline over the whole exchange, the response body read up to a cap. The host
 * is resolved and checked right before connecting, and the connection goes to the
 * checked address (a custom `lookup`), so a DNS answer that changes between the
 * check and the connection (rebinding) cannot reach a private address.
 */
export class HttpWebhookTransport implements WebhookTransport {
  constructor(
    private readonly resolver: TargetResolver,
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {}

  async post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult> {
    const started = performance.now();
    const fail = (error: string, statusCode: number | null = null): TransportResult => ({
      ok: false,
      statusCode,
      error,
      durationMs: performance.now() - started,
      gone: statusCode === 410,
      retryAfterMs: null,
    });
    const refusal = checkUrl(url, this.policy);
    if (refusal) return fail(refusal);
    const target = new URL(url);
    const addresses = await this.resolver.resolve(target.hostname);
    const refused = checkAddresses(target.hostname, addresses, this.policy);
    if (refused) return fail(refused);
    const address = addresses[0];
    const lookup: LookupFunction = (_host, options, done) => {
      const family = address.includes(':') ? 6 : 4;
      if (options.all)
        (done as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
      else done(null, address, family);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<TransportResult>((resolve) => {
      let settled = false;
      const finish = (result: TransportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        req.destroy();
        resolve(result);
      };
      const req = send(
        target,
        {
          method: 'POST',
          lookup,
          agent: false,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'petstore-webhooks/1',
          },
        },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          const retryAfter = status === 429 || status === 503 ? retryAfterMs(res.headers['retry-after']) : null;
          const done = () =>
            finish(
              status >= 200 && status < 300
                ? {
                    ok: true,
                    statusCode: status,
                    error: null,
                    durationMs: performance.now() - started,
                    gone: false,
                    retryAfterMs: null,
                  }
                : { ...fail(`HTTP ${status}`, status), retryAfterMs: retryAfter },
            );
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read >= MAX_RESPONSE_BYTES) done();
          });
          res.on('end', done);
          res.on('error', done);
        },
      );
      const deadline = setTimeout(() => finish(fail(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('error', (error) => finish(fail(error.message)));
      req.end(body);
    });
  }
}

/** A Retry-After header (delay-seconds or an HTTP date) in ms from now; null when absent or unreadable. */
function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
