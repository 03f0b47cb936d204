#!/usr/bin/env node
// Evaluation behind docs/rate-limits.md "Storage choice": our one-script Redis storage
// against rate-limiter-flexible (RLF) doing the same job (a minute and a day window),
// on semantics and on cost. RLF is not a dependency; to re-run:
//
//   npm install --no-save rate-limiter-flexible && npm run build
//   node test/bench/storage-eval.mjs
//
// Environment: REDIS_URL (default redis://127.0.0.1:6379), PETSTORE_DIST (default dist),
// RLF_MODULE (where to import rate-limiter-flexible from; default the package name).
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const DIST = resolve(process.env.PETSTORE_DIST ?? 'dist');
const PREFIX = `rl-eval:${randomUUID()}:`;
const OPS = Number(process.env.EVAL_OPS ?? 20_000);
const CONCURRENCY = 50;

// Not part of the library's public API: the storage itself, to measure it alone.
const { RedisRateLimitStorage } = await import(pathToFileURL(`${DIST}/libs/rate-limit/src/redis.storage.js`).href);
let rlf;
try {
  rlf = await import(process.env.RLF_MODULE ?? 'rate-limiter-flexible');
} catch {
  console.error('rate-limiter-flexible is not installed: npm install --no-save rate-limiter-flexible');
  process.exit(2);
}
const { RateLimiterRedis, RateLimiterUnion } = rlf.default ?? rlf;

const minuteDay = (perMinute, perDay) => ({
  windows: [
    { name: 'minute', limit: perMinute, durationMs: 60_000 },
    { name: 'day', limit: perDay, durationMs: 86_400_000 },
  ],
  ban: { threshold: 3 * perMinute, durationMs: 900_000, windowMs: 60_000 },
  consume: true,
});

async function run(label, ops, once) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ops) {
        const i = next++;
        await once(i);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = ops / seconds;
  console.log(`${label.padEnd(58)} ${Math.round(rate).toString().padStart(7)} checks/s`);
  return rate;
}

const ours = await RedisRateLimitStorage.connect({ url: REDIS_URL, keyPrefix: `${PREFIX}ours:` });
await ours.whenReady(5_000);
const client = new Redis(REDIS_URL);
const commands = async () => Number((await client.info('stats')).match(/total_commands_processed:(\d+)/)[1]);
const rlfMinute = new RateLimiterRedis({ storeClient: client, keyPrefix: `${PREFIX}rlf-m`, points: 60, duration: 60 });
const rlfDay = new RateLimiterRedis({
  storeClient: client,
  keyPrefix: `${PREFIX}rlf-d`,
  points: 1000,
  duration: 86_400,
});
const union = new RateLimiterUnion(rlfMinute, rlfDay);

console.log('Semantics: 100 concurrent requests of one client, 60/min and 1000/day');
{
  const results = await Promise.all(Array.from({ length: 100 }, () => ours.hit('sem', minuteDay(60, 1000))));
  const allowed = results.filter((r) => r.outcome === 'allowed').length;
  const after = await ours.hit('sem', { ...minuteDay(60, 1000), consume: false });
  console.log(
    `  ours: ${allowed} allowed; counted afterwards: minute ${after.windows[0].count}, day ${after.windows[1].count}`,
  );
}
{
  const results = await Promise.all(
    Array.from({ length: 100 }, () =>
      union.consume('sem').then(
        () => true,
        () => false,
      ),
    ),
  );
  const allowed = results.filter(Boolean).length;
  const minute = await rlfMinute.get('sem');
  const day = await rlfDay.get('sem');
  console.log(
    `  RLF union: ${allowed} allowed; counted afterwards: minute ${minute?.consumedPoints}, day ${day?.consumedPoints}` +
      ' (rejected requests consumed quota)',
  );
}

console.log(`\nCost: ${OPS} checks, ${CONCURRENCY} in flight, distinct clients (no rejections)`);
let before = await commands();
const oursRate = await run('ours: one EVALSHA (two windows + ban rule)', OPS, (i) =>
  ours.hit(`c${i % 1000}`, minuteDay(1e6, 1e7)),
);
const oursCommands = ((await commands()) - before) / OPS;
const bigMinute = new RateLimiterRedis({ storeClient: client, keyPrefix: `${PREFIX}big-m`, points: 1e6, duration: 60 });
const bigDay = new RateLimiterRedis({
  storeClient: client,
  keyPrefix: `${PREFIX}big-d`,
  points: 1e7,
  duration: 86_400,
});
const bigUnion = new RateLimiterUnion(bigMinute, bigDay);
before = await commands();
const unionRate = await run('RLF: RateLimiterUnion(minute, day), no ban rule', OPS, (i) =>
  bigUnion.consume(`c${i % 1000}`),
);
const unionCommands = ((await commands()) - before) / OPS;
const oneRate = await run('RLF: one RateLimiterRedis (minute only)', OPS, (i) => bigMinute.consume(`c${i % 1000}`));
console.log(
  '\nRound trips per check: ours 1 (one EVALSHA), RLF union 2 (one per window; a ban rule would need a third limiter)' +
    `\nRedis commands per check, those inside scripts included: ours ${oursCommands.toFixed(2)}, RLF union ${unionCommands.toFixed(2)}` +
    `\nthroughput ours / RLF union: ${(oursRate / unionRate).toFixed(2)}; ours / RLF single window: ${(oursRate / oneRate).toFixed(2)}`,
);

const leftovers = await client.keys(`${PREFIX}*`);
for (let i = 0; i < leftovers.length; i += 500) await client.del(...leftovers.slice(i, i + 500));
await client.quit();
await ours.close();
