import { type Context, ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import { compileTrustProxy } from '../lifecycle/trust-proxy.js';
import { CallerTrustSampler, samplerFromEnv } from './caller-trust-sampler.js';
import { PEER_ADDRESS } from './server-span.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

/** A context whose span is a caller's (remote) or this process's own, sampled or not. */
function parent(sampled: boolean, isRemote = true): Context {
  const traceFlags = sampled ? TraceFlags.SAMPLED : TraceFlags.NONE;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags, isRemote });
}

describe('samplerFromEnv', () => {
  it('defaults to parentbased_always_on, as the specification does', () => {
    const { sampler, root } = samplerFromEnv({});
    expect(sampler).toBeInstanceOf(ParentBasedSampler);
    expect(root).toBeInstanceOf(AlwaysOnSampler);
  });

  it.each([
    ['always_on', AlwaysOnSampler, AlwaysOnSampler],
    ['always_off', AlwaysOffSampler, AlwaysOffSampler],
    ['traceidratio', TraceIdRatioBasedSampler, TraceIdRatioBasedSampler],
    ['parentbased_always_off', ParentBasedSampler, AlwaysOffSampler],
    ['parentbased_traceidratio', ParentBasedSampler, TraceIdRatioBasedSampler],
    ['PARENTBASED_ALWAYS_ON', ParentBasedSampler, AlwaysOnSampler],
    ['jaeger_remote', ParentBasedSampler, AlwaysOnSampler], // unsupported: the default
  ])('%s', (name, kind, rootKind) => {
    const { sampler, root } = samplerFromEnv({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: '0.1' });
    expect(sampler).toBeInstanceOf(kind);
    expect(root).toBeInstanceOf(rootKind);
  });

  it('reads the ratio from OTEL_TRACES_SAMPLER_ARG, 1 when missing or out of [0, 1]', () => {
    const ratio = (arg: string | undefined) =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg }).root.toString();
    expect(ratio('0.1')).toContain('0.1');
    expect(ratio('0')).toContain('{0}');
    expect(ratio(undefined)).toContain('{1}');
    expect(ratio('2')).toContain('{1}');
    expect(ratio('a tenth')).toContain('{1}');
  });
});

describe('CallerTrustSampler', () => {
  const behind = compileTrustProxy('loopback');
  /** The decision for a server span from `peer`, under `context`, with the env's sampler. */
  const decide = (env: NodeJS.ProcessEnv, context: Context, peer = '127.0.0.1', kind = SpanKind.SERVER) =>
    new CallerTrustSampler(samplerFromEnv(env), (address) => behind(address, 0)).shouldSample(
      context,
      TRACE_ID,
      'GET',
      kind,
      { [PEER_ADDRESS]: peer },
      [],
    ).decision;
  const SAMPLED = SamplingDecision.RECORD_AND_SAMPLED;
  const DROPPED = SamplingDecision.NOT_RECORD;

  it("follows a trusted proxy's flag, either way", () => {
    expect(decide({}, parent(true))).toBe(SAMPLED);
    expect(decide({}, parent(false))).toBe(DROPPED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, parent(true))).toBe(SAMPLED);
  });

  it('lets the configured root sampler decide for any other caller, whatever its flag says', () => {
    expect(decide({}, parent(false), '203.0.113.9')).toBe(SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, parent(true), '203.0.113.9')).toBe(DROPPED);
    const tenth = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    expect(decide(tenth, parent(true), '203.0.113.9')).toBe(DROPPED);
    expect(decide(tenth, parent(true), '127.0.0.1')).toBe(SAMPLED);
  });

  it('decides a request without a traceparent with the root sampler', () => {
    expect(decide({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, ROOT_CONTEXT)).toBe(DROPPED);
    expect(decide({}, ROOT_CONTEXT, '203.0.113.9')).toBe(SAMPLED);
  });

  it("follows the process's own parent for the spans under a request", () => {
    const off = { OTEL_TRACES_SAMPLER: 'parentbased_always_off' };
    expect(decide(off, parent(true, false), '203.0.113.9', SpanKind.INTERNAL)).toBe(SAMPLED);
    expect(decide({}, parent(false, false), '203.0.113.9', SpanKind.CLIENT)).toBe(DROPPED);
  });

  it('treats a server span without a peer address as untrusted', () => {
    const sampler = new CallerTrustSampler(
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }),
      () => true,
    );
    expect(sampler.shouldSample(parent(true), TRACE_ID, 'GET', SpanKind.SERVER, {}, []).decision).toBe(DROPPED);
  });
});
