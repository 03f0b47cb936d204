#!/usr/bin/env node
// Instructions per request: each build runs under Valgrind's callgrind, which counts the
// instructions the process executes (JavaScript, V8's compilers and collector, Node, libc —
// every thread; never the kernel), only while the measured requests are served. On two
// shared cores the time a request costs moves by ±20% between runs of one build, so `npm
// run bench` cannot see a 5% change; the count moves by a few percent (the collections and
// optimisations that fall inside the window). A count is work, not time: code that executes
// the same instructions more slowly (cache misses, memory layout) shows in the bench's CPU
// per request and not here, so read both (docs/performance.md, "Counting instructions").
//
//   npm run bench:instructions        (needs `valgrind`: apt-get install valgrind)
//
// Each build, one after the other, on the bench's data (1,000,000 pets, re-created):
// started under callgrind with counting off, ready, WARMUP requests of the measured read
// (INSTRUCTIONS_READ: GET /pets?id=N, N the bench's 1,000 pets across the million; or GET /pets),
// 8 in flight on one keep-alive agent, then counting on for
// REQUESTS more, dumped, stopped. Builds: the service; with tracing on at
// BENCH_TRACING_RATIO (0.1), exporting to a local OTLP sink; with tracing on and nothing
// sampled (what every request pays); and BENCH_BASELINE when given. BENCH_ENTRY and
// BENCH_BASELINE name a build as `npm run bench` reads them (an entry, a dist directory or a
// worktree, run with its start script's node flags).
//
//   INSTRUCTIONS_READ       by-id (GET /pets?id=N, the default) or list (GET /pets, the first page)
//   INSTRUCTIONS_REQUESTS   requests counted (3,000)
//   INSTRUCTIONS_WARMUP     requests before counting (15,000: V8 has optimised the hot path)
//   BENCH_DATABASE_URL      postgres://postgres@127.0.0.1:5432/petstore_bench (re-created)
/* global URL */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver } from '../support/otlp-receiver.mjs';
import { recreateDatabase } from '../support/spawn-service.mjs';
import { loadDataset } from './lib/dataset.mjs';
import { buildEntry, ratioOption } from './lib/options.mjs';
import { startProcess, stopAll, stopProcess, waitForOk } from './lib/processes.mjs';
import { benchKey, serviceEnv as serviceEnvOf, tracingEnv } from './lib/service-env.mjs';

const env = process.env;
const count = (name, normal) => Math.max(1, Number(env[name]) || normal);
const REQUESTS = count('INSTRUCTIONS_REQUESTS', 3_000);
const WARMUP = count('INSTRUCTIONS_WARMUP', 15_000);
const IN_FLIGHT = 8;
const LIST = env.INSTRUCTIONS_READ === 'list';
if (env.INSTRUCTIONS_READ && !LIST && env.INSTRUCTIONS_READ !== 'by-id')
  throw new Error(`INSTRUCTIONS_READ is by-id or list, not ${env.INSTRUCTIONS_READ}`);
/** The measured request: a lookup by id (the bench's 1,000 pets across the million in turn), or the first page. */
const READ = LIST ? 'GET /pets' : 'GET /pets?id=N';
const pathOf = (id) => (LIST ? '/pets' : `/pets?id=${id}`);
const DATABASE_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/petstore_bench';
const RATIO = ratioOption(env.BENCH_TRACING_RATIO, 0.1);
const ENTRY = buildEntry(env.BENCH_ENTRY || env.PETSTORE_ENTRY || 'dist/petstore.cjs', 'BENCH_ENTRY');
const log = (line) => process.stderr.write(`${line}\n`);

/** What callgrind_annotate says of a dump, split into V8's compilers, its collector, and the rest. */
function breakdown(file) {
  const lines = execFileSync('callgrind_annotate', ['--threshold=100', file], { maxBuffer: 1 << 28 })
    .toString()
    .split('\n');
  let total = 0;
  let compiler = 0;
  let collector = 0;
  for (const line of lines) {
    const match = /^\s*([\d,]+) /.exec(line);
    if (!match) continue;
    const value = Number(match[1].replaceAll(',', ''));
    if (line.includes('PROGRAM TOTALS')) total = value;
    else if (
      /v8::internal::(compiler|maglev|baseline|Compiler|Parser|Zone|interpreter::Bytecode)|turboshaft/.test(line)
    )
      compiler += value;
    else if (/Scaveng|MarkCompact|Sweeper|Heap::|Marking|heap::base/.test(line)) collector += value;
  }
  return { total, compiler, collector, rest: total - compiler - collector };
}

/** `n` of the measured request (`READ`), `IN_FLIGHT` at a time; the number that did not answer 200. */
async function load(port, key, ids, n) {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  let sent = 0;
  let failed = 0;
  const one = () =>
    new Promise((done, fail) => {
      const id = ids[sent % ids.length];
      const req = request({ port, path: pathOf(id), agent, headers: { 'x-api-key': key } }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode));
      });
      req.on('error', fail);
      req.end();
    });
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent++ < n) if ((await one()) !== 200) failed++;
    }),
  );
  agent.destroy();
  return failed;
}

async function measure(build, key, ids, dir) {
  const stem = build.name.replace(/\W+/g, '-');
  const callgrind = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--smc-check=all',
    `--callgrind-out-file=${join(dir, stem)}.%p`,
  ];
  const server = await startProcess({ name: stem, script: build.entry, env: build.env, logDir: dir, under: callgrind });
  try {
    await waitForOk(server, '/health/ready', { intervalMs: 500, timeoutMs: 600_000 }); // ~10x slower under callgrind
    const warmFailed = await load(server.port, key, ids, WARMUP);
    execFileSync('callgrind_control', ['--instr=on', String(server.pid)], { stdio: 'ignore' });
    const failed = await load(server.port, key, ids, REQUESTS);
    execFileSync('callgrind_control', ['--dump', String(server.pid)], { stdio: 'ignore' });
    if (warmFailed + failed > 0) throw new Error(`${build.name}: ${warmFailed + failed} requests did not answer 200`);
  } finally {
    await stopProcess(server, 60_000);
  }
  const dump = readdirSync(dir).find((file) => file.startsWith(`${stem}.`) && file.endsWith('.1'));
  if (!dump) throw new Error(`${build.name}: callgrind wrote no dump`);
  return breakdown(join(dir, dump));
}

const perRequest = (value) => `${(value / REQUESTS / 1000).toFixed(0)}k`;

async function main() {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  const key = benchKey();
  const serviceEnv = { ...serviceEnvOf({ databaseUrl: DATABASE_URL, key }), REDIS_URL: undefined };
  const logDir = mkdtempSync(join(tmpdir(), 'petstore-instructions-'));
  const sink = await startOtlpReceiver();
  try {
    log(`Database ${new URL(DATABASE_URL).pathname.slice(1)}: re-created, migrated, loaded…`);
    await recreateDatabase(DATABASE_URL);
    const service = await startProcess({ name: 'service', script: ENTRY, env: serviceEnv, logDir });
    await waitForOk(service, '/health/ready');
    const data = await loadDataset(DATABASE_URL);
    await stopProcess(service);
    const ids = data.spreadPetIds;
    const tracing = (ratio) => ({ ...serviceEnv, ...tracingEnv(sink.endpoint, ratio) });
    const builds = [
      { name: 'service', entry: ENTRY, env: serviceEnv },
      { name: `tracing ${RATIO * 100}%`, entry: ENTRY, env: tracing(RATIO) },
      { name: 'tracing 0%', entry: ENTRY, env: tracing(0) },
      ...(env.BENCH_BASELINE
        ? [{ name: 'baseline', entry: buildEntry(env.BENCH_BASELINE, 'BENCH_BASELINE'), env: serviceEnv }]
        : []),
    ];
    const results = [];
    for (const build of builds) {
      log(`${build.name}: ${WARMUP} requests, then ${REQUESTS} counted…`);
      results.push({ build, counts: await measure(build, key, ids, logDir) });
    }
    const base = results[0].counts.total;
    console.log(`Instructions per ${READ} (callgrind; ${REQUESTS} counted after ${WARMUP}), node ${process.version}`);
    console.log('  build                  total   ratio   V8 compilers   V8 collector   the rest');
    for (const { build, counts } of results) {
      const cells = [counts.total, counts.compiler, counts.collector, counts.rest].map(perRequest);
      const ratio = `${(counts.total / base).toFixed(2)}×`;
      console.log(
        `  ${build.name.padEnd(18)} ${cells[0].padStart(8)} ${ratio.padStart(7)} ${cells[1].padStart(14)} ${cells[2].padStart(14)} ${cells[3].padStart(10)}`,
      );
    }
  } finally {
    await sink.close();
    rmSync(logDir, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers`);
    stopAll().finally(() => process.exit(130));
  });
}

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
