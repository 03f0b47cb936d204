// The bench's results as text (to paste into docs/performance.md) and the targets
// of issue 35 checked against them.
import { COLD_KINDS } from './cold-start.mjs';

const ratio = (a, b) => (a === null || b === null || !b ? null : a / b);
const fixed = (value, digits) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));
const times = (value) => (value === null ? 'n/a' : `${value.toFixed(2)}×`);
const pad = (text, width) => String(text).padStart(width);

const TABLE_HEAD = `  ${'server'.padEnd(17)}${pad('req/s', 8)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('non-2xx', 9)}${pad('CPU ms/req', 12)}`;

function serverRow(name, s) {
  return `  ${name.padEnd(17)}${pad(Math.round(s.rps), 8)}${pad(fixed(s.p50, 1), 9)}${pad(fixed(s.p99, 1), 9)}${pad(s.non2xx + s.errors, 9)}${pad(fixed(s.cpuPerRequestMs, 3), 12)}`;
}

/** Throughput, p50, p99 and CPU per request of `a` relative to `b`. */
export function ratios(a, b) {
  return {
    throughput: ratio(a.rps, b.rps),
    p50: ratio(a.p50, b.p50),
    p99: ratio(a.p99, b.p99),
    cpuPerRequest: ratio(a.cpuPerRequestMs, b.cpuPerRequestMs),
  };
}

/**
 * The same ratios taken round by round, from the two servers' runs of each round
 * (at most a few runs apart), then their median over the rounds: a machine whose
 * speed drifts during the run moves these less than the ratios of the medians.
 */
export function pairedRatios(a, b) {
  const rounds = Math.min(a.rounds?.length ?? 0, b.rounds?.length ?? 0);
  const byRound = (figure) => {
    const values = [];
    for (let i = 0; i < rounds; i++) {
      const value = ratio(figure(a.rounds[i]), figure(b.rounds[i]));
      if (value !== null) values.push(value);
    }
    return values.length ? median(values) : null;
  };
  return {
    throughput: byRound((run) => run.rps),
    p50: byRound((run) => run.p50),
    p99: byRound((run) => run.p99),
    cpuPerRequest: byRound((run) => (run.cpuMs === null || !run.requests ? null : run.cpuMs / run.requests)),
  };
}

function ratioRow(label, r) {
  return `  ${label.padEnd(17)}${pad(times(r.throughput), 8)}${pad(times(r.p50), 9)}${pad(times(r.p99), 9)}${pad('', 9)}${pad(times(r.cpuPerRequest), 12)}`;
}

/** Which ratios a scenario shows: `[label, numerator, denominator]`. */
function comparisons(result) {
  const names = Object.keys(result.servers);
  if (result.id === 'redis') return [['redis/memory', 'service+redis', 'service']];
  if (result.id.startsWith('tracing')) return [['tracing on/off', 'service+tracing', 'service']];
  return ['baseline', 'floor', 'minimal']
    .filter((ref) => names.includes(ref))
    .map((ref) => [`service/${ref}`, 'service', ref]);
}

export function scenarioText(result) {
  const lines = [
    `${result.title}  [load average ${result.loadAverage.before} before, ${result.loadAverage.after} after]`,
    TABLE_HEAD,
  ];
  for (const [name, summary] of Object.entries(result.servers)) lines.push(serverRow(name, summary));
  for (const [label, a, b] of comparisons(result)) {
    lines.push(ratioRow(label, ratios(result.servers[a], result.servers[b])));
    lines.push(ratioRow('  by round', pairedRatios(result.servers[a], result.servers[b])));
  }
  const collected = Object.entries(result.servers).filter(([, summary]) => summary.gc && summary.requests);
  if (collected.length)
    lines.push(`  GC per 1,000 requests: ${collected.map(([name, s]) => gcText(name, s)).join('; ')}`);
  return lines.join('\n');
}

/** Mark-compacts, scavenges and milliseconds collecting per 1,000 requests (servers that serve /metrics). */
function gcText(name, { gc, requests }) {
  const per = (value, digits) => ((value * 1000) / requests).toFixed(digits);
  return `${name} ${per(gc.major, 2)} mark-compacts, ${per(gc.minor, 1)} scavenges, ${per(gc.ms, 1)} ms`;
}

export function memoryText(memory) {
  const mb = (value) => pad(value ? Math.round(value) : 'n/a', 13);
  const lines = [`  ${'Memory (MB)'.padEnd(17)}${pad('idle VmRSS', 13)}${pad('after VmRSS', 13)}${pad('VmHWM', 13)}`];
  for (const [name, m] of Object.entries(memory)) {
    lines.push(`  ${name.padEnd(17)}${mb(m.idle?.rss)}${mb(m.after?.rss)}${mb(m.after?.hwm)}`);
  }
  return lines.join('\n');
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `median (min–max)` of `values` in ms, rounded. */
function spread(values) {
  if (!values.length) return 'n/a';
  if (values.length === 1) return String(Math.round(values[0]));
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return `${Math.round(median(values))} (${Math.round(low)}–${Math.round(high)})`;
}

export function coldStartText(cold) {
  const names = Object.keys(cold.builds);
  const [service, baseline] = [cold.builds.service, cold.builds.baseline];
  const width = 20;
  const lines = [
    `Cold start to the first 200 of GET /health/ready, ms: median (min–max) of ${cold.runs} run(s)` +
      (baseline
        ? '; the builds alternate run by run (service, baseline, …), ratio of the medians (range of the runs)'
        : ''),
    ...names.map((name) => `  ${name}: node ${cold.builds[name].script}`),
    `  ${'start'.padEnd(50)}${names.map((name) => pad(name, width)).join('')}${baseline ? pad('service/baseline', 24) : ''}`,
  ];
  for (const kind of COLD_KINDS) {
    let row = `  ${kind.label.padEnd(50)}${names.map((name) => pad(spread(cold.builds[name][kind.id]), width)).join('')}`;
    if (baseline) {
      // Each run's own ratio: its two starts were next to each other.
      const paired = service[kind.id].map((value, i) => value / baseline[kind.id][i]);
      const range = paired.length > 1 ? ` (${fixed(Math.min(...paired), 2)}–${fixed(Math.max(...paired), 2)})` : '';
      row += pad(`${times(ratio(median(service[kind.id]), median(baseline[kind.id])))}${range}`, 24);
    }
    lines.push(row);
  }
  if (cold.runs > 1) {
    lines.push('  every run, in order:');
    for (const kind of COLD_KINDS) {
      const runs = names.map((name) => `${name} ${cold.builds[name][kind.id].map(Math.round).join(', ')}`);
      lines.push(`    ${kind.label.padEnd(50)}${runs.join('; ')}`);
    }
  }
  // What a first start left where a compile cache would be: nothing means the build keeps none there.
  const cache = names.map((name) => {
    const bytes = cold.builds[name].cacheBytes;
    const mb = bytes.length ? median(bytes) / 1e6 : 0;
    return `${name} ${mb ? `${mb.toFixed(1)} MB` : 'nothing (no compile cache there)'}`;
  });
  const where = ['its TMPDIR', ...cold.clearDirs].join(', ');
  lines.push(`  written by a first start on the machine PostgreSQL into ${where}: ${cache.join('; ')}`);
  return lines.join('\n');
}

/** The reads issue 35 sets targets for: throughput against both references, p99 against the floor's. */
const TARGET_READS = ['pets-by-id', 'pet-by-path'];

/** Every target of issue 35 with the figure measured (null: not measured in this run). */
export function targets(results) {
  const list = [];
  const add = (name, value, limit, atLeast, unit = '×') =>
    list.push({
      name,
      value,
      limit,
      atLeast,
      unit,
      met: value === null || value === undefined ? null : atLeast ? value >= limit : value <= limit,
    });
  for (const id of TARGET_READS) {
    const result = results.scenarios[id];
    const floor = result?.servers.floor ? ratios(result.servers.service, result.servers.floor) : null;
    const minimal = result?.servers.minimal ? ratios(result.servers.service, result.servers.minimal) : null;
    const title = result?.title ?? id;
    add(`${title}: throughput vs floor`, floor?.throughput ?? null, 2.5, true);
    add(`${title}: throughput vs minimal`, minimal?.throughput ?? null, 1.0, true);
    add(`${title}: p99 vs floor`, floor?.p99 ?? null, 1.0, false);
  }
  const orders = results.scenarios.orders?.servers;
  add(
    'POST /store/orders (hot pet): throughput vs minimal',
    orders ? ratio(orders.service.rps, orders.minimal.rps) : null,
    1.0,
    true,
  );
  for (const id of ['tracing', 'tracing-list']) {
    const result = results.scenarios[id];
    const on = result?.servers['service+tracing']
      ? ratios(result.servers['service+tracing'], result.servers.service)
      : null;
    add(`${result?.title ?? id}: throughput on/off (issue 43)`, on?.throughput ?? null, 0.9, true);
  }
  const memory = results.memory.service;
  add('service RSS after the whole benchmark', memory?.after?.rss ?? null, 200, false, ' MB');
  const cold = results.coldStart?.builds.service;
  const sec = (values) => (values?.length ? median(values) / 1000 : null);
  add('cold start, machine PostgreSQL (warm compile cache)', sec(cold?.machineWarm), 1.0, false, ' s');
  add('cold start, embedded fresh', sec(cold?.embeddedFresh), 1.5, false, ' s');
  add('cold start, embedded second start', sec(cold?.embeddedSecond), 1.0, false, ' s');
  return list;
}

export function targetsText(list) {
  const measured = list.filter((t) => t.met !== null);
  const missed = measured.filter((t) => !t.met).length;
  const lines = [
    `Targets of issues 35 and 43: ${measured.length - missed} met, ${missed} missed, ${list.length - measured.length} not measured`,
  ];
  for (const t of measured) {
    const digits = t.unit === ' MB' ? 0 : 2;
    const value = t.value === null ? 'n/a' : `${t.value.toFixed(digits)}${t.unit}`;
    const verdict = t.met ? 'met' : 'MISSED';
    const limit = `${t.unit === ' MB' ? t.limit : t.limit.toFixed(t.unit === ' s' ? 1 : 2)}${t.unit}`;
    lines.push(`  ${t.name.padEnd(60)}${pad(value, 9)}  (${t.atLeast ? '≥' : '≤'} ${limit})  ${verdict}`);
  }
  return lines.join('\n');
}
