// An open-loop load generator: requests go out on a fixed schedule (one every 1/rate s),
// whatever the server answers and however long it takes, over node:http with a
// keep-alive agent whose pool is never the limit. Each latency is counted from the
// request's scheduled send time, not from when it could be sent, so a server that
// stalls is charged for every request that waited behind the stall (no coordinated
// omission). Per window of the schedule: requests sent, latency percentiles, answers
// by status, errors, how late this process sent (its own lag); and the server's CPU
// time and RSS, sampled every second from /proc.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMs, memoryMb } from './proc.mjs';

/** The value at quantile `q` of ascending `sorted` (nearest rank); null when empty. */
export function percentile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : null;
}

const newWindow = (index, windowMs) => ({
  index,
  fromS: (index * windowMs) / 1000,
  toS: ((index + 1) * windowMs) / 1000,
  sent: 0,
  answered: 0,
  latencies: [],
  statuses: {},
  errors: {},
  maxLagMs: 0,
});

/** Counts, percentiles and the server's CPU % of one core and RSS in one window. */
function summarise(window, samples) {
  const sorted = window.latencies.sort((a, b) => a - b);
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  // CPU: each pair of consecutive samples counted in the window its later sample falls in.
  let cpu = 0;
  let wall = 0;
  const rss = [];
  for (let i = 1; i < samples.length; i++) {
    const [before, after] = [samples[i - 1], samples[i]];
    if (after.t < window.fromS * 1000 || after.t >= window.toS * 1000) continue;
    if (after.cpu !== null && before.cpu !== null) {
      cpu += after.cpu - before.cpu;
      wall += after.t - before.t;
    }
    if (after.rss !== null) rss.push(after.rss);
  }
  const counts = { ...window };
  delete counts.latencies;
  return {
    ...counts,
    p50,
    p99,
    max: sorted.at(-1) ?? null,
    p99OverP50: p50 && p99 !== null ? p99 / p50 : null,
    cpuPercent: wall ? (cpu / wall) * 100 : null,
    rssMb: rss.length ? Math.max(...rss) : null,
  };
}

/**
 * Sends `rate` requests a second for `seconds` to 127.0.0.1:`port`, request `i` being
 * what `next(i)` returns: `{ method, path, headers, body, onAnswer }` (`onAnswer(status,
 * text)` gets the answer's status and body; `label` names the kind of request, its
 * method and path by default). The server's process `pid` is sampled
 * every second. Requests still unanswered `drainMs` after the last was sent count as
 * errors ('unanswered'). Returns the windows (`windowSeconds` each), latencies and
 * statuses by label over the windows after the first, and the samples.
 */
export async function runOpenLoop({ port, pid, rate, seconds, windowSeconds, next, drainMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
  const windowMs = windowSeconds * 1000;
  const total = Math.round(rate * seconds);
  const windows = Array.from({ length: Math.ceil(seconds / windowSeconds) }, (_, i) => newWindow(i, windowMs));
  const intervalMs = 1000 / rate;
  const samples = [];
  const pending = new Set();
  const byLabel = {};
  let idle;
  const t0 = performance.now() + 100;
  const sample = () => {
    const memory = memoryMb(pid);
    samples.push({ t: performance.now() - t0, cpu: cpuMs(pid), rss: memory ? memory.rss : null });
  };

  const send = (i, scheduled) => {
    const window = windows[Math.min(windows.length - 1, Math.floor((scheduled - t0) / windowMs))];
    window.sent += 1;
    window.maxLagMs = Math.max(window.maxLagMs, performance.now() - scheduled);
    const { method = 'GET', path, headers = {}, body, onAnswer, label = `${method} ${path}` } = next(i);
    // By kind of request, the windows after the first (the warm-up) when there are several.
    const kind = window.index > 0 || windows.length === 1 ? (byLabel[label] ??= { latencies: [], statuses: {} }) : null;
    const all = { ...headers };
    if (body !== undefined) {
      all['Content-Type'] = 'application/json';
      all['Content-Length'] = String(Buffer.byteLength(body));
    }
    let request;
    const finish = (status, text, error) => {
      if (!pending.delete(request)) return;
      if (error) window.errors[error] = (window.errors[error] ?? 0) + 1;
      else {
        window.answered += 1;
        window.latencies.push(performance.now() - scheduled);
        window.statuses[status] = (window.statuses[status] ?? 0) + 1;
        if (kind) {
          kind.latencies.push(performance.now() - scheduled);
          kind.statuses[status] = (kind.statuses[status] ?? 0) + 1;
        }
        onAnswer?.(status, text);
      }
      if (pending.size === 0) idle?.();
    };
    request = http.request({ agent, host: '127.0.0.1', port, method, path, headers: all }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => finish(res.statusCode, onAnswer ? Buffer.concat(chunks).toString('utf8') : ''));
      res.on('error', (error) => finish(0, '', error.code ?? 'response error'));
    });
    request.on('error', (error) => finish(0, '', error.code ?? error.message));
    pending.add(request);
    request.end(body);
  };

  sample();
  const sampler = setInterval(sample, 1_000);
  try {
    await new Promise((done) => {
      let i = 0;
      const tick = () => {
        const now = performance.now();
        while (i < total && t0 + i * intervalMs <= now) {
          send(i, t0 + i * intervalMs);
          i += 1;
        }
        if (i >= total) done();
        else setTimeout(tick, Math.max(0, t0 + i * intervalMs - performance.now()));
      };
      setTimeout(tick, Math.max(0, t0 - performance.now()));
    });
    if (pending.size) {
      await Promise.race([new Promise((done) => (idle = done)), sleep(drainMs)]);
    }
    for (const request of [...pending]) request.destroy(new Error('unanswered'));
    await sleep(50); // their 'error' events, counted
  } finally {
    clearInterval(sampler);
    sample();
    agent.destroy();
  }
  const kinds = Object.entries(byLabel).map(([label, { latencies, statuses }]) => {
    const sorted = latencies.sort((a, b) => a - b);
    const [p50, p99] = [percentile(sorted, 0.5), percentile(sorted, 0.99)];
    return { label, answered: sorted.length, p50, p99, max: sorted.at(-1) ?? null, statuses };
  });
  return { windows: windows.map((window) => summarise(window, samples)), kinds, samples, total };
}
