#!/usr/bin/env node
/* global fetch, setInterval, clearInterval */
// `npm run bench:flood`: the in-memory rate-limit counters stay bounded under a flood of
// distinct addresses (docs/rate-limits.md, "Bounded memory"). One instance of the built
// service (in-process counters, TRUST_PROXY=loopback) on the machine's PostgreSQL:
//
// 1. keyed traffic (GET /categories with an enterprise key whose quotas never bind) is
//    measured, and the service's RSS read;
// 2. FLOOD_REQUESTS requests (default 1,000,000) without a key, each from an
//    X-Forwarded-For address of its own (10.0.0.0/8), are sent by the bench's load
//    generator (wrk, or autocannon), the RSS sampled every 250 ms;
// 3. keyed traffic is measured again, with the counters of anonymous clients at their cap.
//
// Targets: the RSS never more than 50 MB above where it was before the flood, and keyed
// throughput after it at least 90 % of before. Figures in docs/performance.md.
//
// Environment:
//   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/petstore_bench (dropped and re-created)
//   PETSTORE_ENTRY      dist/petstore.cjs
//   FLOOD_REQUESTS      requests of the flood (1,000,000)
//   BENCH_DURATION      seconds per keyed measurement (8)
//   BENCH_ROUNDS        keyed measurements before and after, median taken (3)
//   BENCH_CONNECTIONS   concurrent connections (50)
//   RATE_LIMIT_MAX_ANONYMOUS_CLIENTS  passed to the service (its default when unset)
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, recreateDatabase, spawnService, waitUntilReady } from '../support/spawn-service.mjs';
import { LOADER, loadOnce } from './lib/measure.mjs';
import { memoryMb } from './lib/proc.mjs';
import { benchKey, serviceEnv } from './lib/service-env.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/petstore_bench';
const FLOOD_REQUESTS = Number(process.env.FLOOD_REQUESTS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY = benchKey();
const TARGETS = { rssGrowthMb: 50, keyedRatio: 0.9 };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (value) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(1)} MB`);

/** Keyed throughput: the median of ROUNDS runs. */
async function keyed(server, label) {
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const run = await loadOnce(
      server,
      { path: '/categories' },
      { seconds: DURATION, connections: CONNECTIONS, key: KEY },
    );
    if (run.non2xx + run.errors > 0)
      throw new Error(`keyed traffic ${label}: ${run.non2xx} non-2xx, ${run.errors} errors`);
    console.log(`  keyed ${label}, round ${round}: ${Math.round(run.rps)} req/s, p99 ${run.p99} ms`);
    runs.push(run.rps);
  }
  return median(runs);
}

/** The flood, in runs of the load generator until FLOOD_REQUESTS are sent; the RSS sampled meanwhile. */
async function flood(server) {
  let sent = 0;
  let peak = 0;
  const sampler = setInterval(() => {
    const rss = memoryMb(server.pid)?.rss;
    if (rss !== undefined && rss > peak) peak = rss;
  }, 250);
  try {
    while (sent < FLOOD_REQUESTS) {
      // Each run starts where the last stopped, so no address is sent twice; a run of a few seconds at most.
      const seconds = Math.max(1, Math.min(10, Math.ceil((FLOOD_REQUESTS - sent) / 5_000)));
      const request = { path: '/categories', uniqueAddress: { header: 'X-Forwarded-For', start: sent } };
      const run = await loadOnce(server, request, { seconds, connections: CONNECTIONS, key: null });
      if (run.errors > 0)
        throw new Error(`the flood met ${run.errors} socket errors or timeouts: ${JSON.stringify(run)}`);
      sent += run.requests;
      console.log(
        `  flood: ${sent.toLocaleString('en')} requests (${Math.round(run.rps)} req/s), RSS ${mb(memoryMb(server.pid)?.rss)}`,
      );
    }
  } finally {
    clearInterval(sampler);
  }
  return { sent, peak };
}

async function main() {
  await recreateDatabase(DATABASE_URL);
  const service = spawnService({
    name: 'the service',
    port: await freePort(),
    env: {
      ...serviceEnv({ databaseUrl: DATABASE_URL, key: KEY, logLevel: 'warn' }),
      REDIS_URL: '',
      TRUST_PROXY: 'loopback',
    },
  });
  const server = { base: service.base, pid: service.child.pid };
  try {
    const url = `${service.base}/categories`;
    await waitUntilReady(service, async () => (await fetch(url, { headers: { 'X-API-Key': KEY } })).status === 200);
    console.log(
      `${LOADER}, ${CONNECTIONS} connections; flood of ${FLOOD_REQUESTS.toLocaleString('en')} distinct addresses`,
    );
    await loadOnce(server, { path: '/categories' }, { seconds: 3, connections: CONNECTIONS, key: KEY }); // warm up
    const before = await keyed(server, 'before the flood');
    await sleep(1_000);
    const start = memoryMb(server.pid)?.rss ?? null;
    console.log(`  RSS before the flood: ${mb(start)}`);
    const { sent, peak } = await flood(server);
    const end = memoryMb(server.pid)?.rss ?? null;
    const after = await keyed(server, 'after the flood');

    const growth = start === null ? null : Math.max(peak, end ?? 0) - start;
    const ratio = after / before;
    const verdict = (met) => (met ? 'met' : 'MISSED');
    console.log(`\naddresses sent         ${sent.toLocaleString('en')}`);
    console.log(`RSS before / peak / end ${mb(start)} / ${mb(peak)} / ${mb(end)}`);
    console.log(
      `RSS growth             ${mb(growth)}  (target <= ${TARGETS.rssGrowthMb} MB: ${growth === null ? 'n/a' : verdict(growth <= TARGETS.rssGrowthMb)})`,
    );
    console.log(
      `keyed req/s            ${Math.round(before)} before, ${Math.round(after)} after: ${ratio.toFixed(3)}  (target >= ${TARGETS.keyedRatio}: ${verdict(ratio >= TARGETS.keyedRatio)})`,
    );
  } finally {
    service.child.kill('SIGTERM');
    await Promise.race([service.exited, sleep(15_000)]);
  }
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
