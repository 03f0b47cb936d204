/** Types of otlp-receiver.mjs, for the TypeScript tests that import it. */

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Record<string, unknown>;
  readonly links: ReadonlyArray<{ traceId: string; spanId: string }>;
  /** 0 unset, 1 ok, 2 error. */
  readonly status: { code: number; message?: string };
  readonly scope?: string;
  readonly resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly stats: { requests: number; bytes: number };
  waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export declare function spansOf(request: unknown): ReceivedSpan[];
export declare function startOtlpReceiver(): Promise<OtlpReceiver>;
export declare function traceTree(spans: readonly ReceivedSpan[], traceId: string): string;
