import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { type AppConfig, appConfig } from '../../config/app.config.js';
import { sameAddress } from '../domain/address-ranges.js';
import type { TransportResult, WebhookTransport } from '../domain/dispatch.js';
import { TargetResolver } from '../domain/ports.js';
import { retryAfterMs } from '../domain/retry-after.js';
import { bareHost, checkAddresses, checkUrl, type TargetPolicy } from '../domain/target-rules.js';
import { trustedCertificates } from './trusted-certificates.js';

/** Response bytes read at most (the status is what counts; the body is read only so the receiver can finish). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

interface TransportOptions {
  /** One deadline for the whole attempt: resolution, connection, TLS, the answer and its body. */
  readonly timeoutMs: number;
  /** Certificates trusted for https; undefined: Node's default roots. */
  readonly ca: readonly string[] | undefined;
}

/** A failure the attempt ends with, its message recorded as the delivery's error. */
class AttemptFailed extends Error {}

/**
 * POSTs with Node's http/https clients. Right before connecting, the host is resolved and
 * every address checked against the target rules; the connection goes to the checked
 * address (a `lookup` that answers it alone), and the socket's remote address is verified
 * before the request is written, so a DNS answer that changes in between (rebinding) cannot
 * reach a forbidden address. No redirect is followed (a 3xx is a failed attempt), at most
 * 64 KiB of the answer is read, and one deadline ends the attempt wherever it is.
 */
@Injectable()
export class HttpWebhookTransport implements WebhookTransport {
  private readonly policy: TargetPolicy;
  private readonly options: TransportOptions;

  /** The transport the configuration describes: its target rules, WEBHOOKS_TIMEOUT_MS and WEBHOOKS_CA_FILE. */
  constructor(
    private readonly resolver: TargetResolver,
    @Inject(appConfig.KEY) { webhooks }: Pick<AppConfig, 'webhooks'>,
  ) {
    this.policy = webhooks;
    this.options = { timeoutMs: webhooks.timeoutMs, ca: trustedCertificates(webhooks.caFile) };
  }

  async post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult> {
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    try {
      const answer = await this.exchange(url, headers, body, deadline.signal);
      return { ...answer, durationMs: performance.now() - started };
    } catch (error) {
      const message = deadline.signal.aborted
        ? `timed out after ${this.options.timeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
      return {
        ok: false,
        statusCode: null,
        error: message,
        durationMs: performance.now() - started,
        gone: false,
        retryAfterMs: null,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private async exchange(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal,
  ): Promise<Omit<TransportResult, 'durationMs'>> {
    const refusal = checkUrl(url, this.policy);
    if (refusal) throw new AttemptFailed(refusal);
    const target = new URL(url);
    const host = bareHost(target.hostname);
    const addresses = await untilAborted(this.resolver.resolve(host), signal);
    const refused = checkAddresses(host, addresses, this.policy);
    if (refused) throw new AttemptFailed(refused);
    const res = await this.send(target, addresses[0], headers, body, signal);
    const status = res.statusCode ?? 0;
    await readCapped(res, signal);
    return {
      ok: status >= 200 && status < 300,
      statusCode: status,
      error:
        status >= 200 && status < 300
          ? null
          : status < 400
            ? `HTTP ${status}: redirect not followed`
            : `HTTP ${status}`,
      gone: status === 410,
      retryAfterMs: retryAfterMs(status, headerValue(res, 'retry-after'), Date.now()),
    };
  }

  /** Sends the request to `address` (and nowhere else); resolves with the answer's head. */
  private send(
    target: URL,
    address: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const family = isIP(address);
    const lookup: LookupFunction = (_host, options, done) => {
      if (options.all) done(null, [{ address, family }]);
      else done(null, address, family);
    };
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req: ClientRequest = request(
        target,
        {
          method: 'POST',
          lookup,
          agent: false,
          signal,
          ...(this.options.ca ? { ca: [...this.options.ca] } : {}),
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'petstore-webhooks/1',
          },
        },
        resolve,
      );
      req.once('socket', (socket: Socket) => this.verifyPeer(socket, address));
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * Destroys the socket unless it reached the checked address (which the target rules
   * have judged: the same address in another spelling gets the same verdict). The check
   * runs on `connect`, before the request's bytes, which the socket writes only once
   * connected: its listener for them is added after this one.
   */
  private verifyPeer(socket: Socket, address: string): void {
    const verify = () => {
      const remote = socket.remoteAddress;
      if (remote === undefined || !sameAddress(remote, address))
        socket.destroy(new AttemptFailed(`connected to ${remote ?? 'nothing'}, not to the checked ${address}`));
    };
    if (socket.connecting) socket.once('connect', verify);
    else verify();
  }
}

/** Settles as `work` does, or rejects when `signal` aborts first (a DNS lookup cannot be cancelled, only left). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(new AttemptFailed('aborted'));
    if (signal.aborted) return abandon();
    signal.addEventListener('abort', abandon, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon));
  });
}

/** Reads the body up to the cap, the end or the deadline, whichever comes first; the status is already known. */
async function readCapped(res: IncomingMessage, signal: AbortSignal): Promise<void> {
  const stop = () => res.destroy();
  signal.addEventListener('abort', stop, { once: true });
  let read = 0;
  try {
    for await (const chunk of res) {
      read += (chunk as Buffer).length;
      if (read >= MAX_RESPONSE_BYTES) break;
    }
  } catch {
    // Cut short by the deadline or the receiver: the answer's status stands.
  } finally {
    signal.removeEventListener('abort', stop);
    res.destroy();
  }
}

function headerValue(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
