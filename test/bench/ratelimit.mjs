#!/usr/bin/env node
/* global fetch */
// `npm run bench:ratelimit`: what the rate limiter costs. Three instances of the built
// service on one PostgreSQL — limiter off (RATE_LIMIT_ENABLED=false), in-process
// counters, Redis counters — are loaded in turn with GET /categories by autocannon,
// in interleaved rounds (so drift on the machine hits all three alike); the median
// throughput of each is printed with its ratio to "off".
//
// An enterprise key with huge limits is used, so the run measures the limiter's
// overhead (counting, headers, Redis round trip), never 429s.
//
// Environment:
//   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/petstore_bench (dropped and re-created)
//   REDIS_URL           redis://127.0.0.1:6379 (keys under a fresh prefix, removed afterwards)
//   PETSTORE_ENTRY      dist/petstore.cjs
//   BENCH_DURATION      seconds per measurement (default 8)
//   BENCH_ROUNDS        rounds (default 3)
//   BENCH_CONNECTIONS   concurrent connections (default 50)
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import {
  deleteRedisKeys,
  freePort,
  recreateDatabase,
  spawnService,
  waitUntilReady,
} from '../support/spawn-service.mjs';
import { benchKey, serviceEnv, webhooksSecret } from './lib/service-env.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/petstore_bench';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PREFIX = `rl-bench:${randomUUID()}:`;
const KEY = benchKey();
/** One key sealing webhook secrets for every instance, as a DATABASE_URL requires. */
const WEBHOOKS_SECRET_KEY = webhooksSecret();
const TARGETS = { memory: 0.05, redis: 0.15 };

const MODES = [
  { name: 'off', env: { RATE_LIMIT_ENABLED: 'false', REDIS_URL: '' } },
  { name: 'memory', env: { REDIS_URL: '' } },
  { name: 'redis', env: { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: PREFIX } },
];
const children = [];

async function start(mode) {
  const service = spawnService({
    name: `the '${mode.name}' instance`,
    port: await freePort(),
    env: {
      ...serviceEnv({ databaseUrl: DATABASE_URL, key: KEY, secret: WEBHOOKS_SECRET_KEY, logLevel: 'warn' }),
      ...mode.env,
    },
  });
  children.push(service.child);
  const url = `${service.base}/categories`;
  await waitUntilReady(service, async () => (await fetch(url, { headers: { 'X-API-Key': KEY } })).status === 200);
  return { ...mode, url, output: service.output };
}

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { 'X-API-Key': KEY } });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  await recreateDatabase(DATABASE_URL);
  const instances = [];
  for (const mode of MODES) instances.push(await start(mode)); // one at a time: the first migrates and seeds
  const sample = await fetch(instances[2].url, { headers: { 'X-API-Key': KEY } });
  console.log(
    `GET /categories: ${(await sample.json()).length} categories; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s; ` +
      `limiter headers on 'redis': X-RateLimit-Limit ${sample.headers.get('x-ratelimit-limit')}`,
  );

  for (const instance of instances) await load(instance.url, 2); // warm up (JIT, pools, script cache)
  const results = Object.fromEntries(MODES.map((m) => [m.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? instances : [...instances].reverse();
    for (const instance of order) {
      const r = await load(instance.url, DURATION);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad > 0)
        throw new Error(`'${instance.name}' answered ${bad} non-2xx/errors: the run would not measure overhead`);
      results[instance.name].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
      console.log(
        `round ${round} ${instance.name.padEnd(6)} ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
      );
    }
  }

  const summary = Object.fromEntries(
    MODES.map(({ name }) => [
      name,
      {
        rps: median(results[name].map((r) => r.rps)),
        p50: median(results[name].map((r) => r.p50)),
        p99: median(results[name].map((r) => r.p99)),
      },
    ]),
  );
  const off = summary.off.rps;
  console.log('\nlimiter   median req/s   p50 ms   p99 ms   vs off');
  for (const { name } of MODES) {
    const s = summary[name];
    const ratio = s.rps / off;
    const target = TARGETS[name];
    const verdict =
      target === undefined
        ? ''
        : ratio >= 1 - target
          ? `  (target >= ${1 - target}: met)`
          : `  (target >= ${1 - target}: MISSED)`;
    console.log(
      `${name.padEnd(9)} ${Math.round(s.rps).toString().padStart(12)} ${String(s.p50).padStart(8)} ${String(s.p99).padStart(8)}   ${ratio.toFixed(3)}${verdict}`,
    );
  }
}

let status = 0;
try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  status = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await sleep(500);
  await deleteRedisKeys(REDIS_URL, PREFIX);
}
process.exit(status);
