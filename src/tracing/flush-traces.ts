import { trace } from '@opentelemetry/api';

/** How long the last spans may take to reach the collector at shutdown. */
const FLUSH_BUDGET_MS = 5_000;

/** What the SDK's tracer provider offers (ProxyTracerProvider's `getDelegate`, the provider's `shutdown`). */
interface ProviderShape {
  getDelegate?: () => unknown;
  shutdown?: () => Promise<void>;
}

/**
 * Ends tracing at a graceful shutdown, last (after the database stopped, so that its
 * spans are in): the SDK's provider, registered by the entry in a bundle of its own and
 * reached here through `@opentelemetry/api` (`getTracerProvider`, the proxy's
 * `getDelegate`), exports what its batch still holds and shuts down, within
 * `FLUSH_BUDGET_MS`. Nothing to do with tracing off.
 */
export async function flushTraces(): Promise<void> {
  const proxy = trace.getTracerProvider() as ProviderShape;
  const provider = (proxy.getDelegate?.() ?? proxy) as ProviderShape;
  if (typeof provider.shutdown !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((done) => (timer = setTimeout(done, FLUSH_BUDGET_MS).unref()));
  await Promise.race([provider.shutdown().catch(() => undefined), budget]);
  clearTimeout(timer);
}
