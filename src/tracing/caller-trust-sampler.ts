import { type Attributes, type Context, type Link, SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import { PEER_ADDRESS } from './server-span.js';

/** The sampler the standard variables name, and the one that decides a trace's root (the same when not parent-based). */
export interface ConfiguredSampler {
  readonly sampler: Sampler;
  readonly root: Sampler;
}

/**
 * `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` as the specification reads them:
 * `always_on`, `always_off`, `traceidratio`, and their `parentbased_` forms;
 * default (unset or unknown) `parentbased_always_on`; the ratio defaults to 1 when
 * missing or outside [0, 1]. (The SDK's own reading is not part of its public API.)
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): ConfiguredSampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const parentBased = name.startsWith('parentbased_');
  const rootName = parentBased ? name.slice('parentbased_'.length) : name;
  const known = ['always_on', 'always_off', 'traceidratio'].includes(rootName);
  const root = known ? rootSampler(rootName, env.OTEL_TRACES_SAMPLER_ARG) : new AlwaysOnSampler();
  return { sampler: parentBased || !known ? new ParentBasedSampler({ root }) : root, root };
}

function rootSampler(name: string, arg: string | undefined): Sampler {
  if (name === 'always_on') return new AlwaysOnSampler();
  if (name === 'always_off') return new AlwaysOffSampler();
  const ratio = arg === undefined || arg.trim() === '' ? Number.NaN : Number(arg);
  return new TraceIdRatioBasedSampler(ratio >= 0 && ratio <= 1 ? ratio : 1);
}

/**
 * The configured sampler, except for a request that brings a `traceparent` from a
 * peer that is not a trusted proxy (`TRUST_PROXY`): its span still continues the
 * caller's trace, but whether it is sampled is the configured root sampler's
 * decision, not the caller's flag — a client cannot make the service trace every
 * request it sends. Behind a trusted proxy (a gateway that made or checked the
 * decision), the caller's flag decides, as the parent-based samplers do.
 */
export class CallerTrustSampler implements Sampler {
  constructor(
    private readonly configured: ConfiguredSampler,
    private readonly trustedPeer: (address: string) => boolean,
  ) {}

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const parent = trace.getSpanContext(context);
    if (spanKind === SpanKind.SERVER && parent?.isRemote) {
      const peer = attributes[PEER_ADDRESS];
      if (typeof peer !== 'string' || !this.trustedPeer(peer)) {
        return this.configured.root.shouldSample(context, traceId, spanName, spanKind, attributes, links);
      }
    }
    return this.configured.sampler.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `CallerTrustSampler{${this.configured.sampler.toString()}}`;
  }
}
