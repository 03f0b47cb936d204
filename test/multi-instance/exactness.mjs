#!/usr/bin/env node
/* global fetch */
// Exactness across instances (API.md section 5): two real service processes on one
// PostgreSQL and one Redis together allow exactly the plan's limit.
//
//   node test/multi-instance/exactness.mjs        (after `npm run build`)
//
// Environment (defaults suit the CI machine):
//   MULTI_INSTANCE_DATABASE_URL  postgres://postgres@127.0.0.1:5432/petstore_ratelimit_mi
//                                (dropped and re-created: use a database of its own)
//   REDIS_URL                    redis://127.0.0.1:6379 (keys under a fresh prefix, removed afterwards)
//   PETSTORE_ENTRY               dist/petstore.cjs
//
// Checks, each with the counts printed:
//   1. 100 concurrent requests of one free key, alternating between the instances:
//      exactly 60 succeed, 40 get 429 RATE_LIMIT_EXCEEDED, and the 60 successes saw
//      60 distinct remaining counts (no slot handed out twice).
//   2. The rejected requests consumed nothing: the day window shows 1000 - 60.
//   3. A plans-file change applied by SIGHUP to both instances keeps the counters:
//      raising free to 80/min lets exactly 20 of 50 further concurrent requests through.
//   4. A bad plans file stops start-up with a message naming the bad entry.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  deleteRedisKeys,
  ENTRY,
  freePort,
  recreateDatabase,
  spawnService,
  waitUntilReady,
} from '../support/spawn-service.mjs';

const DATABASE_URL =
  process.env.MULTI_INSTANCE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/petstore_ratelimit_mi';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = `rl-mi:${randomUUID()}:`;
const ADMIN_KEY = `psk_multi_instance_${randomBytes(16).toString('hex')}`;
/** One key sealing webhook secrets for both instances, as a DATABASE_URL requires. */
const WEBHOOKS_SECRET_KEY = randomBytes(32).toString('base64');
const work = mkdtempSync(join(tmpdir(), 'petstore-mi-'));
const plansFile = join(work, 'plans.yaml');
const children = [];
const failures = [];

const plans = (freePerMinute) => `plans:
  free: { perMinute: ${freePerMinute}, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
  enterprise: per-key
`;

function check(ok, message) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures.push(message);
}

function start(name, port, extraEnv = {}) {
  const log = join(work, `${name}.log`);
  const instance = spawnService({
    name,
    port,
    env: {
      DATABASE_URL,
      REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: PREFIX,
      BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      WEBHOOKS_SECRET_KEY,
      SEED_DEMO_DATA: 'false',
      PLANS_FILE: plansFile,
      PLANS_WATCH_INTERVAL_MS: '0', // only SIGHUP reloads, so the test shows that path
      ...extraEnv,
    },
  });
  instance.child.on('exit', () => writeFileSync(log, instance.output()));
  children.push(instance);
  return instance;
}

function waitUntilServing(instance) {
  return waitUntilReady(instance, async () => {
    const res = await fetch(`${instance.base}/admin/plans`, { headers: { 'X-API-Key': ADMIN_KEY } });
    return res.status === 200;
  });
}

async function exitOf(instance, timeoutMs) {
  if (instance.child.exitCode !== null) return instance.child.exitCode;
  return Promise.race([
    new Promise((done) => instance.child.once('exit', (code) => done(code))),
    sleep(timeoutMs).then(() => 'still running'),
  ]);
}

async function stopAll() {
  for (const instance of children) {
    if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
  }
  for (const instance of children) {
    if ((await exitOf(instance, 15_000)) === 'still running') instance.child.kill('SIGKILL');
  }
}

/** `{minute: {r, t}, day: {r, t}}` from the RateLimit field. */
function windows(res) {
  const out = {};
  for (const item of String(res.headers.get('ratelimit')).split(', ')) {
    const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item);
    if (m) out[m[1]] = { r: Number(m[2]), t: Number(m[3]) };
  }
  return out;
}

async function burst(instances, key, count) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${instances[i % instances.length].base}/categories`, { headers: { 'X-API-Key': key } });
      const body = await res.json();
      return { status: res.status, code: body.code, remaining: res.headers.get('x-ratelimit-remaining'), res };
    }),
  );
}

async function main() {
  console.log(`entry ${ENTRY}\ndatabase ${DATABASE_URL}\nredis ${REDIS_URL} (prefix ${PREFIX})`);
  readFileSync(ENTRY); // a clear error when the build is missing
  await recreateDatabase(DATABASE_URL);
  writeFileSync(plansFile, plans(60));

  // One after the other: the first applies the migrations and registers the admin key.
  const a = start('instance-a', await freePort());
  await waitUntilServing(a);
  const b = start('instance-b', await freePort());
  await waitUntilServing(b);
  console.log(`instances: a on ${a.port} (pid ${a.child.pid}), b on ${b.port} (pid ${b.child.pid})`);

  const created = await fetch(`${a.base}/admin/api-keys`, {
    method: 'POST',
    headers: { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'multi-instance free key', plan: 'free', scopes: ['read'] }),
  });
  if (created.status !== 201) throw new Error(`creating a free key: ${created.status} ${await created.text()}`);
  const { key } = await created.json();

  // 1. Exactness.
  const results = await burst([a, b], key, 100);
  const ok = results.filter((r) => r.status === 200);
  const limited = results.filter((r) => r.status === 429 && r.code === 'RATE_LIMIT_EXCEEDED');
  const perInstance = [0, 1].map((n) => results.filter((r, i) => i % 2 === n && r.status === 200).length);
  const distinct = new Set(ok.map((r) => r.remaining)).size;
  console.log(
    `burst of 100: ${ok.length} x 200 (a ${perInstance[0]}, b ${perInstance[1]}), ${limited.length} x 429, ` +
      `${results.length - ok.length - limited.length} other; ${distinct} distinct X-RateLimit-Remaining values`,
  );
  check(ok.length === 60, `exactly 60 of 100 succeed across two instances (got ${ok.length})`);
  check(limited.length === 40, `the other 40 get 429 RATE_LIMIT_EXCEEDED (got ${limited.length})`);
  check(distinct === 60, `each success took its own slot (${distinct} distinct remaining counts)`);

  // 2. Rejections consume nothing.
  const day = windows(limited[0]?.res ?? ok[0].res).day;
  check(day?.r === 940, `the day window counts the successes only: remaining ${day?.r} of 1000`);

  // 3. Reload on SIGHUP on both instances keeps the counters.
  writeFileSync(plansFile, plans(80));
  a.child.kill('SIGHUP');
  b.child.kill('SIGHUP');
  for (const instance of [a, b]) {
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${instance.base}/admin/plans`, { headers: { 'X-API-Key': ADMIN_KEY } });
      if ((await res.json())[0]?.perMinute === 80) break;
      await sleep(100);
    }
  }
  const more = await burst([b, a], key, 50);
  const moreOk = more.filter((r) => r.status === 200).length;
  console.log(`after SIGHUP (free 80/min): ${moreOk} x 200, ${more.length - moreOk} x 429 of 50`);
  check(moreOk === 20, `raising free to 80/min by SIGHUP lets exactly 20 more through (got ${moreOk})`);

  // 4. A bad plans file stops start-up, naming the entry.
  const badFile = join(work, 'bad-plans.yaml');
  writeFileSync(badFile, plans(60).replace('pro: { perMinute: 300', 'pro: { perMinute: -5'));
  const bad = start('instance-bad', await freePort(), { PLANS_FILE: badFile });
  const code = await exitOf(bad, 30_000);
  const said = bad.output();
  check(code === 1, `a bad plans file stops start-up (exit ${code})`);
  check(said.includes('plans.pro.perMinute'), `the message names the bad entry: ${said.trim().split('\n').at(-1)}`);
}

let status = 0;
try {
  await main();
} catch (error) {
  console.error(error);
  status = 1;
} finally {
  await stopAll();
  await deleteRedisKeys(REDIS_URL, PREFIX);
  if (failures.length > 0 || status !== 0) {
    for (const instance of children) console.error(`--- ${instance.name} log ---\n${instance.output()}`);
  }
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) console.error(`\nmulti-instance exactness: ${failures.length} check(s) failed`);
else if (status === 0) console.log('\nmulti-instance exactness: all checks passed');
process.exit(failures.length > 0 || status !== 0 ? 1 : 0);
