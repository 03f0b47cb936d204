// Load generation and what is measured around it: wrk (when installed) or autocannon
// against one server for a while, the server's CPU time and garbage collections over the same interval, and
// interleaved rounds (so that drift on a shared machine hits every server alike).
/* global fetch, AbortSignal */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { cpuMs, loadAverage } from './proc.mjs';
import { wrkAvailable, wrkOnce } from './wrk.mjs';

/** The load generator of this run: 'wrk' when it is installed, else 'autocannon'. */
export const LOADER = wrkAvailable() ? 'wrk' : 'autocannon';

/** A random one of `paths`, for a scenario spread over many requests. */
const anyOf = (paths) => paths[Math.floor(Math.random() * paths.length)];

/** The `n`-th address of 10.0.0.0/8 (as wrk.mjs makes them). */
const addressOf = (n) => {
  const a = n % 16_777_216;
  return `10.${Math.floor(a / 65_536)}.${Math.floor(a / 256) % 256}.${a % 256}`;
};

async function autocannonOnce(
  url,
  { method, headers, body, seconds, connections, paths, uniqueHeader, uniqueAddress },
) {
  const prefix = randomUUID();
  let counter = 0;
  let address = uniqueAddress?.start ?? 0;
  const unique = (request) => {
    let out = request;
    if (uniqueHeader) out = { ...out, headers: { ...out.headers, [uniqueHeader]: `${prefix}-${++counter}` } };
    if (uniqueAddress) out = { ...out, headers: { ...out.headers, [uniqueAddress.header]: addressOf(address++) } };
    return out;
  };
  const requests =
    paths || uniqueHeader || uniqueAddress
      ? [{ setupRequest: (request) => unique(paths ? { ...request, path: anyOf(paths) } : request) }]
      : undefined;
  const result = await autocannon({ url, method, body, headers, connections, duration: seconds, requests });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The `nodejs_gc_duration_seconds` series of prom-client's default metrics, by kind. */
const GC_SERIES = /^nodejs_gc_duration_seconds_(count|sum)\{kind="(major|minor)"\} (\S+)$/gm;

/**
 * The server's garbage collections so far, from its `/metrics` (the admin key reads it):
 * mark-compacts (`major`), scavenges (`minor`) and their seconds; null for a server that
 * serves none (the references) and for a run without the key (nothing extra is sent then).
 */
async function collections(server, key) {
  if (!key) return null;
  try {
    const response = await fetch(`${server.base}/metrics`, {
      headers: { 'X-API-Key': key },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return null;
    const counts = { major: 0, minor: 0, seconds: 0 };
    for (const [, series, kind, value] of (await response.text()).matchAll(GC_SERIES)) {
      if (series === 'count') counts[kind] = Number(value);
      else counts.seconds += Number(value);
    }
    return counts;
  } catch {
    return null;
  }
}

/** What the collections between two readings were: a process that collects the old generation far more often shows it. */
const gcBetween = (before, after) =>
  before && after
    ? {
        major: after.major - before.major,
        minor: after.minor - before.minor,
        ms: Math.round((after.seconds - before.seconds) * 1000),
      }
    : null;

/**
 * One load run: throughput, latency, failures, the server's CPU time per request and its
 * garbage collections over the run (when it serves /metrics).
 * A request with `paths` asks a random one of them each time (its `path` is the first);
 * with `uniqueHeader`, each request gives that header a value never sent before.
 */
export async function loadOnce(server, request, { seconds, connections, key }) {
  const headers = key ? { 'X-API-Key': key } : {};
  if (request.body) headers['Content-Type'] = 'application/json';
  const gcBefore = await collections(server, key);
  const cpuBefore = cpuMs(server.pid);
  const generate = LOADER === 'wrk' ? wrkOnce : autocannonOnce;
  const url = `${server.base}${request.path}`;
  const method = request.method ?? 'GET';
  const paths = request.paths;
  const { uniqueHeader, uniqueAddress } = request;
  const result = await generate(url, {
    method,
    headers,
    body: request.body,
    seconds,
    connections,
    paths,
    uniqueHeader,
    uniqueAddress,
  });
  const cpuAfter = cpuMs(server.pid);
  const gc = gcBetween(gcBefore, await collections(server, key));
  return { ...result, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, gc };
}

/** Medians over the rounds; CPU per request and garbage collections over all of them together. */
function summarise(runs) {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const cpu = runs.every((r) => r.cpuMs !== null) ? runs.reduce((sum, r) => sum + r.cpuMs, 0) : null;
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests,
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    cpuPerRequestMs: cpu === null || requests === 0 ? null : cpu / requests,
    gc: runs.every((r) => r.gc)
      ? Object.fromEntries(['major', 'minor', 'ms'].map((k) => [k, runs.reduce((sum, r) => sum + r.gc[k], 0)]))
      : null,
    rounds: runs,
  };
}

/**
 * Warms each server up, then runs `rounds` rounds in which every server is loaded
 * once: in the given order on odd rounds, reversed on even ones. The scenario's
 * `beforeRun`, if any, runs before every load run. `log` gets a line per run. With
 * `options.restart` (a server → its fresh process), each round after the first restarts
 * every server and warms it up before it is loaded: `servers` then holds the last ones.
 *
 * A server's warm-up lasts `options.firstWarmup` seconds when it is a process's first
 * (a fresh process's included), or when the scenario's request is new to it while another
 * server of the scenario has run it before, and `options.warmup` otherwise
 * (`options.warmed` records, by server, the requests each ran): V8 optimises a path after
 * enough calls of it, least soon the paths few requests take — a traced request at 10%
 * sampling: counted under callgrind, a sampled `GET /pets` cost 3.4× the instructions
 * after 4,000 requests that it cost after 16,000 —, and a comparison is fair only between
 * servers that run it equally warm.
 */
export async function runScenario(scenario, servers, options, log) {
  const load = { seconds: options.duration, connections: options.connections, key: options.key };
  const loadBefore = loadAverage();
  const once = async (server, seconds) => {
    await scenario.beforeRun?.();
    return loadOnce(server, scenario.request, { ...load, seconds });
  };
  const ran = (server) => options.warmed?.get(server);
  const ranBefore = servers.filter((server) => ran(server)?.has(scenario.request));
  const warmUp = (server) => {
    const requests = ran(server) ?? new WeakSet();
    const long = !ran(server) || (!requests.has(scenario.request) && ranBefore.some((other) => other !== server));
    options.warmed?.set(server, requests.add(scenario.request));
    return once(server, long ? Math.max(options.warmup, options.firstWarmup ?? 0) : options.warmup);
  };
  for (const server of servers) await warmUp(server);
  const runs = new Map(servers.map((server) => [server.name, []]));
  for (let round = 1; round <= options.rounds; round++) {
    if (round > 1 && options.restart) {
      // Every round on processes of their own (`BENCH_FRESH_PROCESSES`), warmed up again.
      for (let i = 0; i < servers.length; i++) {
        servers[i] = await options.restart(servers[i]);
        await warmUp(servers[i]);
      }
    }
    const order = round % 2 === 1 ? servers : [...servers].reverse();
    for (const server of order) {
      const run = await once(server, options.duration);
      runs.get(server.name).push(run);
      const failures = run.non2xx + run.errors ? `, ${run.non2xx} non-2xx, ${run.errors} errors` : '';
      const gc = run.gc ? `, GC ${run.gc.minor} scavenges + ${run.gc.major} mark-compacts (${run.gc.ms} ms)` : '';
      log(
        `  round ${round} ${server.name.padEnd(13)} ${Math.round(run.rps)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms${failures}${gc}`,
      );
    }
  }
  return {
    id: scenario.id,
    title: scenario.title,
    loadAverage: { before: loadBefore, after: loadAverage() },
    servers: Object.fromEntries([...runs].map(([name, list]) => [name, summarise(list)])),
  };
}
