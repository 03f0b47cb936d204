#!/usr/bin/env node
// `npm run bench`: the built service against two references doing exactly its work
// for the measured requests — a minimal one (node:http + pg) and a floor one (the
// cheapest correct NestJS app) — on one PostgreSQL database holding 1,000,000 pets.
// Every server's answers are checked against the service's first; then each
// scenario runs interleaved rounds with wrk (autocannon where wrk is not installed,
// or with BENCH_LOADER=autocannon) and the report gives req/s,
// p50/p99, non-2xx, node CPU per request, their ratios, memory, cold start and the
// targets of issue 35. docs/performance.md explains how to read it.
//
// Progress goes to stderr, the report to stdout (and, with --json FILE, as JSON).
// Options (environment, or the flags given):
//   BENCH_DATABASE_URL  or DATABASE_URL; default postgres://postgres@127.0.0.1:5432/petstore_bench
//                       (dropped and re-created)
//   REDIS_URL           for the Redis scenario (default redis://127.0.0.1:6379; skipped if unreachable)
//   BENCH_SCENARIOS     comma-separated, default all but steady-load: pets-by-id, pet-by-path,
//                       list-first, deep-10k, deep-1m, orders, orders-idempotent, redis,
//                       tracing, tracing-list, cold-start; and steady-load (opt-in: 10 minutes a
//                       build by default)
//   BENCH_TRACING_RATIO the tracing scenarios' sampling ratio (0.1): the service with tracing on
//                       (OTLP/HTTP protobuf to a sink the bench runs) against the service
//   BENCH_DURATION      seconds per measured run (8)      BENCH_ROUNDS     rounds (3)
//   BENCH_WARMUP        seconds of warm-up per server (3) BENCH_CONNECTIONS connections (50)
//   BENCH_FIRST_WARMUP  seconds of warm-up of a server process before its first scenario (10;
//                       a fresh process's too), and of a request new to a server that another
//                       of the scenario ran before: every server's JIT compiler is still at work
//                       on its request path after a few seconds, the service's (much more code)
//                       longest, and a traced path at 10% sampling ten times longer
//   BENCH_COLD_RUNS     runs of each cold start (3)
//   BENCH_CLEAR_COMPILE_CACHE  comma-separated directories emptied (files removed) before every
//                       first start of the cold starts, for a build that keeps a compile cache where
//                       the bench does not look (it empties each build's own TMPDIR, and
//                       NODE_COMPILE_CACHE): c7addd1's is dist/petstore.cjs.cache
//   BENCH_STEADY_RATE   steady-load: requests per second, sent on a fixed schedule (250)
//   BENCH_STEADY_SECONDS  steady-load: seconds of load per build (600; quick: 20)
//   BENCH_STEADY_WINDOW   steady-load: seconds per reported window (30; quick: 5)
//   BENCH_STEADY_KEYS   steady-load: API keys issued, of every plan (2000)
//   BENCH_LOADER        wrk (the default when installed) or autocannon
//   BENCH_QUICK=1, --quick   a smoke run: 2 s runs, 1 round, 1 s warm-up, 1 cold run
//   BENCH_JSON=FILE, --json FILE   also write the results as JSON
//   BENCH_KEEP_LOGS=1   keep the servers' logs (their directory is printed)
//   BENCH_FRESH_PROCESSES=1  every round after the first restarts the scenario's servers (and
//                       warms them up): two processes of one build differ by up to ~15% in CPU
//                       per request, so a small ratio (tracing on/off) needs several processes
//                       of each side, not several rounds of one
//   BENCH_REFERENCE_READS=batched  the references send the pet reads of one turn together (by
//                       default one statement per request, as a plain server does)
//   BENCH_ENTRY         the built service's entry (or PETSTORE_ENTRY; default dist/petstore.cjs):
//                       the bundle, or the compiled tree (dist/src/main.js, dist/src/start.js)
//   BENCH_BASELINE      another build of the service (e.g. a worktree's dist/petstore.cjs at an
//                       earlier commit), loaded in the same interleaved rounds as 'baseline': the
//                       way to measure what a change bought on a shared machine. An entry file
//                       (either kind), a dist directory or a worktree (then the entry its start
//                       script names, run with that script's node flags, as everywhere here)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';
import pg from 'pg';
import { startOtlpReceiver } from '../support/otlp-receiver.mjs';
import { redisAnswersPing } from '../support/redis-ping.mjs';
import { deleteRedisKeys, recreateDatabase } from '../support/spawn-service.mjs';
import { checkAnswers, checkRequests } from './lib/checks.mjs';
import { measureColdStarts } from './lib/cold-start.mjs';
import { CATEGORY_PETS, loadDataset, resetHotPet, SPREAD } from './lib/dataset.mjs';
import { LOADER, runScenario } from './lib/measure.mjs';
import { buildEntry, ratioOption } from './lib/options.mjs';
import { loadAverage, memoryMb } from './lib/proc.mjs';
import { restartProcess, startProcess, stopAll, stopProcess, waitForOk } from './lib/processes.mjs';
import { benchKey, serviceEnv as serviceEnvOf, tracingEnv } from './lib/service-env.mjs';
import { coldStartText, memoryText, scenarioText, targets, targetsText } from './lib/report.mjs';
import { runSteadyLoad, steadyLoadText } from './lib/steady-load.mjs';
import { encodeCursor } from './references/work.mjs';

const ALL_SCENARIOS = [
  'pets-by-id',
  'pet-by-path',
  'list-first',
  'deep-10k',
  'deep-1m',
  'orders',
  'orders-idempotent',
  'redis',
  'tracing',
  'tracing-list',
  'cold-start',
  'steady-load',
];
/** Run unless BENCH_SCENARIOS names others: all but the long steady load. */
const DEFAULT_SCENARIOS = ALL_SCENARIOS.filter((id) => id !== 'steady-load');
/** The scenarios that load the service beside the references. */
const LOAD_SCENARIOS = ALL_SCENARIOS.filter((id) => id !== 'cold-start' && id !== 'steady-load');
const REFERENCES = {
  minimal: fileURLToPath(new URL('./references/minimal.mjs', import.meta.url)),
  floor: fileURLToPath(new URL('./references/floor.mjs', import.meta.url)),
};

function parseOptions(argv, env) {
  const args = [...argv];
  let quick = env.BENCH_QUICK === '1';
  let json = env.BENCH_JSON || undefined;
  while (args.length) {
    const arg = args.shift();
    if (arg === '--quick') quick = true;
    else if (arg === '--json' && args.length) json = args.shift();
    else throw new Error(`unknown argument '${arg}' (usage: bench.mjs [--quick] [--json FILE])`);
  }
  const number = (name, normal, smoke) => {
    const value = Number(env[name] || (quick ? smoke : normal));
    if (!(value > 0)) throw new Error(`${name} must be a positive number`);
    return value;
  };
  const scenarios = (env.BENCH_SCENARIOS || DEFAULT_SCENARIOS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scenarios.filter((s) => !ALL_SCENARIOS.includes(s));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${ALL_SCENARIOS.join(', ')}`);
  return {
    quick,
    json,
    scenarios,
    databaseUrl: env.BENCH_DATABASE_URL || env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/petstore_bench',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    duration: number('BENCH_DURATION', 8, 2),
    rounds: number('BENCH_ROUNDS', 3, 1),
    warmup: number('BENCH_WARMUP', 3, 1),
    firstWarmup: number('BENCH_FIRST_WARMUP', 10, 2),
    connections: number('BENCH_CONNECTIONS', 50, 50),
    coldRuns: number('BENCH_COLD_RUNS', 3, 1),
    freshProcesses: env.BENCH_FRESH_PROCESSES === '1',
    clearCompileCache: [
      ...(env.BENCH_CLEAR_COMPILE_CACHE || '').split(','),
      ...(env.NODE_COMPILE_CACHE ? [env.NODE_COMPILE_CACHE] : []),
    ]
      .map((dir) => dir.trim())
      .filter(Boolean)
      .map((dir) => resolve(dir)),
    steady: {
      rate: number('BENCH_STEADY_RATE', 250, 250),
      seconds: number('BENCH_STEADY_SECONDS', 600, 20),
      window: number('BENCH_STEADY_WINDOW', 30, 5),
      keys: number('BENCH_STEADY_KEYS', 2000, 2000),
    },
    keepLogs: env.BENCH_KEEP_LOGS === '1',
    entry: buildEntry(env.BENCH_ENTRY || env.PETSTORE_ENTRY || 'dist/petstore.cjs', 'BENCH_ENTRY'),
    baseline: env.BENCH_BASELINE ? buildEntry(env.BENCH_BASELINE, 'BENCH_BASELINE') : undefined,
    referenceReads: env.BENCH_REFERENCE_READS === 'batched' ? 'batched' : 'single',
    tracingRatio: ratioOption(env.BENCH_TRACING_RATIO, 0.1),
    key: benchKey(),
  };
}

/** The load scenarios, with the servers each compares. */
function loadScenarios(data, databaseUrl, baseline, tracingRatio) {
  const all = ['service', ...(baseline ? ['baseline'] : []), 'minimal', 'floor'];
  const order = JSON.stringify({ petId: data.hotPetId, quantity: 1 });
  // Every request of a scenario but the first page asks a different pet or page, at random among
  // SPREAD: 50 clients asking for the very same thing at once is not what a pet store sees (and a
  // server that shares identical reads would be measured on that alone).
  const spread = (paths) => ({ path: paths[0], paths });
  const byId = spread(data.spreadPetIds.map((id) => `/pets?id=${id}`));
  /** One object per request kind: a server's warm-up knows the requests it ran by them (runScenario). */
  const firstPage = { path: '/pets' };
  const many = `${SPREAD.toLocaleString('en')} different`;
  return [
    { id: 'pets-by-id', title: `GET /pets?id=N (${many} N)`, servers: all, request: byId },
    {
      id: 'pet-by-path',
      title: `GET /pets/{id} (deprecated; ${many} ids)`,
      servers: all,
      request: spread(data.spreadPetIds.map((id) => `/pets/${id}`)),
    },
    { id: 'list-first', title: 'GET /pets (first page)', servers: all, request: firstPage },
    {
      id: 'deep-10k',
      title: `GET /pets deep page of ${CATEGORY_PETS.toLocaleString('en')} (${many} cursors)`,
      servers: all,
      request: spread(
        data.deep10kAfters.map((after) => `/pets?categoryId=${data.categoryId}&cursor=${encodeCursor(after)}`),
      ),
    },
    {
      id: 'deep-1m',
      title: `GET /pets deep page of ${data.totalPets.toLocaleString('en')} (${many} cursors)`,
      servers: all,
      request: spread(data.deep1mAfters.map((after) => `/pets?cursor=${encodeCursor(after)}`)),
    },
    {
      id: 'orders',
      title: 'POST /store/orders on one hot pet',
      servers: all,
      request: { path: '/store/orders', method: 'POST', body: order },
      beforeRun: () => resetHotPet(databaseUrl, data.hotPetId),
    },
    {
      // The references ignore the header (their naive transaction has no idempotency): the
      // service's idempotent orders measured against the same bar as its plain ones.
      id: 'orders-idempotent',
      title: 'POST /store/orders on one hot pet, a new Idempotency-Key each (the references ignore it)',
      servers: all,
      request: { path: '/store/orders', method: 'POST', body: order, uniqueHeader: 'Idempotency-Key' },
      beforeRun: () => resetHotPet(databaseUrl, data.hotPetId),
    },
    {
      id: 'redis',
      title: `GET /pets?id=N (${many} N), Redis limiter vs in-memory`,
      servers: ['service', 'service+redis'],
      request: byId,
    },
    {
      id: 'tracing',
      title: `GET /pets?id=N (${many} N), tracing on (${tracingRatio * 100}% sampled, OTLP to a sink) vs off`,
      servers: ['service', 'service+tracing'],
      request: byId,
    },
    {
      id: 'tracing-list',
      title: `GET /pets (first page), tracing on (${tracingRatio * 100}% sampled, OTLP to a sink) vs off`,
      servers: ['service', 'service+tracing'],
      request: firstPage,
    },
  ];
}

async function postgresVersion(url) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query('SHOW server_version')).rows[0].server_version;
  } finally {
    await db.end();
  }
}

const log = (line) => process.stderr.write(`${line}\n`);

async function run(options, logDir) {
  const wanted = (id) => options.scenarios.includes(id);
  /** The tracing scenarios' OTLP sink. */
  let sink;
  const prefix = `bench:${randomUUID()}:`;
  const serviceEnv = { ...serviceEnvOf({ databaseUrl: options.databaseUrl, key: options.key }), REDIS_URL: undefined };
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: availableParallelism(), node: process.version, loader: LOADER },
    options: { ...options, key: undefined, databaseUrl: undefined },
    loadAverage: { start: loadAverage() },
    scenarios: {},
    memory: {},
    notes: [],
  };

  log(`Database ${new URL(options.databaseUrl).pathname.slice(1)}: re-created; starting the service (migrates)…`);
  await recreateDatabase(options.databaseUrl);
  results.machine.postgres = await postgresVersion(options.databaseUrl);
  if (options.baseline) {
    // The baseline migrates the empty database first: a build that renamed migrations records
    // their new names beside the former ones it finds, while an older build, finding only new
    // names, would run those migrations a second time and fail.
    const baseline = await startProcess({ name: 'baseline', script: options.baseline, env: serviceEnv, logDir });
    await waitForOk(baseline, '/health/ready');
    await stopProcess(baseline);
  }
  const servers = { service: await startProcess({ name: 'service', script: options.entry, env: serviceEnv, logDir }) };
  await waitForOk(servers.service, '/health/ready');
  const loadStarted = performance.now();
  log('Loading the data (bulk SQL)…');
  const data = await loadDataset(options.databaseUrl);
  log(`  ${data.totalPets} pets in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
  // Started again, so that every server under test starts alike, on the loaded database (two
  // copies of one build still differ by up to about 12 % in a short run: read several runs).
  await stopProcess(servers.service);
  delete servers.service;

  if (LOAD_SCENARIOS.some(wanted)) {
    servers.service = await startProcess({ name: 'service', script: options.entry, env: serviceEnv, logDir });
    const referenceEnv = { DATABASE_URL: options.databaseUrl };
    servers.minimal = await startProcess({ name: 'minimal', script: REFERENCES.minimal, env: referenceEnv, logDir });
    servers.floor = await startProcess({ name: 'floor', script: REFERENCES.floor, env: referenceEnv, logDir });
    if (options.baseline) {
      servers.baseline = await startProcess({ name: 'baseline', script: options.baseline, env: serviceEnv, logDir });
    }
    if (wanted('redis')) {
      if (await redisAnswersPing(options.redisUrl)) {
        const env = { ...serviceEnv, REDIS_URL: options.redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
        servers['service+redis'] = await startProcess({
          name: 'service+redis',
          script: options.entry,
          env,
          logDir,
        });
      } else {
        results.notes.push(`Redis scenario skipped: no Redis answers at ${options.redisUrl}`);
      }
    }
    if (wanted('tracing') || wanted('tracing-list')) {
      // The same build with tracing on, exporting (OTLP/HTTP, protobuf: the default) to a sink
      // in this process that answers 200 and only counts what it gets.
      sink = await startOtlpReceiver();
      const env = { ...serviceEnv, ...tracingEnv(sink.endpoint, options.tracingRatio) };
      servers['service+tracing'] = await startProcess({ name: 'service+tracing', script: options.entry, env, logDir });
    }
    for (const server of Object.values(servers)) await waitForOk(server, '/health/ready');
    await sleep(1_000);
    for (const [name, server] of Object.entries(servers)) results.memory[name] = { idle: memoryMb(server.pid) };

    const others = Object.values(servers).filter((s) => s !== servers.service);
    const checked = await checkAnswers(servers.service, others, checkRequests(data), options.key);
    log(`Answers checked: ${checked} requests, ${others.map((s) => s.name).join(', ')} answer as the service does`);

    // BENCH_FRESH_PROCESSES: a restarted server takes its predecessor's place for the scenarios after.
    const restart = options.freshProcesses
      ? async (server) => (servers[server.name] = await restartProcess(server, '/health/ready'))
      : undefined;
    // The requests each server process has run: a process's first warm-up is BENCH_FIRST_WARMUP (runScenario).
    const warmed = new WeakMap();
    for (const scenario of loadScenarios(data, options.databaseUrl, options.baseline, options.tracingRatio)) {
      if (!wanted(scenario.id) || !scenario.servers.every((name) => servers[name])) continue;
      log(`${scenario.title}`);
      const list = scenario.servers.map((name) => servers[name]);
      results.scenarios[scenario.id] = await runScenario(scenario, list, { ...options, warmed, restart }, log);
    }
    for (const [name, server] of Object.entries(servers)) results.memory[name].after = memoryMb(server.pid);
  }
  await stopAll();
  if (sink) {
    results.notes.push(
      `Tracing sink: ${sink.stats.requests} OTLP exports, ${(sink.stats.bytes / 1e6).toFixed(1)} MB received`,
    );
    await sink.close();
  }

  /** The builds compared by the scenarios that start their own processes. */
  const builds = [
    { name: 'service', script: options.entry },
    ...(options.baseline ? [{ name: 'baseline', script: options.baseline }] : []),
  ];
  if (wanted('steady-load')) {
    log('Steady load…');
    results.steadyLoad = await runSteadyLoad({
      builds,
      env: serviceEnv,
      databaseUrl: options.databaseUrl,
      data,
      settings: options.steady,
      adminKey: options.key,
      logDir,
      log,
    });
  }
  if (wanted('cold-start')) {
    log('Cold starts…');
    results.coldStart = await measureColdStarts({
      builds,
      env: { ...serviceEnv, BOOTSTRAP_ADMIN_KEY: options.key },
      databaseUrl: options.databaseUrl,
      runs: options.coldRuns,
      clearDirs: options.clearCompileCache,
      logDir,
      log,
    });
  }
  results.loadAverage.end = loadAverage();
  results.targets = targets(results);
  await deleteRedisKeys(options.redisUrl, prefix);
  return results;
}

function reportText(results, options) {
  const o = results.options;
  const parts = [
    `Petstore API benchmark, ${results.date}${options.quick ? ' (quick mode: a smoke run, not figures)' : ''}`,
    `node ${results.machine.node}, PostgreSQL ${results.machine.postgres}, ${results.machine.cpus} CPUs; ` +
      `${results.machine.loader}, ${o.connections} connections, ${o.rounds} round(s) of ${o.duration} s after ${o.warmup} s of warm-up ` +
      `(${Math.max(o.warmup, o.firstWarmup)} s at a process's first)` +
      (o.freshProcesses ? '; every round on fresh processes (BENCH_FRESH_PROCESSES=1)' : ''),
    `references' pet reads: ${o.referenceReads === 'single' ? 'one statement per request (BENCH_REFERENCE_READS=single)' : "those of one turn sent together, as the service's"}`,
    `service: node ${o.entry}${o.baseline ? `; baseline: node ${o.baseline}` : ''}`,
    `load average (1, 5, 15 min): ${results.loadAverage.start} at the start, ${results.loadAverage.end} at the end`,
    ...results.notes,
  ].join('\n');
  const sections = [parts];
  for (const result of Object.values(results.scenarios)) sections.push(scenarioText(result));
  if (Object.keys(results.memory).length) sections.push(memoryText(results.memory));
  if (results.steadyLoad) sections.push(steadyLoadText(results.steadyLoad));
  if (results.coldStart) sections.push(coldStartText(results.coldStart));
  sections.push(targetsText(results.targets));
  return sections.join('\n\n');
}

let status = 0;
let logDir;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers`);
    stopAll().finally(() => process.exit(130));
  });
}
try {
  const options = parseOptions(process.argv.slice(2), process.env);
  logDir = mkdtempSync(join(tmpdir(), 'petstore-bench-logs-'));
  const results = await run(options, logDir);
  process.stdout.write(`${reportText(results, options)}\n`);
  if (options.json) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
  if (options.keepLogs) log(`Logs kept in ${logDir}`);
  else rmSync(logDir, { recursive: true, force: true });
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  if (logDir) log(`Logs kept in ${logDir}`);
  status = 1;
} finally {
  await stopAll();
}
process.exit(status);
