// The steady-load scenario: each build, freshly started on the bench's database (the
// machine PostgreSQL), gets a fixed open-loop rate of a pet store's mixed traffic for
// a long while, and the report follows its tail latency, CPU and memory window by
// window: does p99 stay within 8 × p50 once warm, does RSS creep? The builds run one
// after the other with the same settings, the same request sequence (a seeded random
// one) and the same data, reset before each.
//
// Traffic: API keys of every plan issued through the admin API before the first run,
// the requests spread over them Zipf-like (a few keys send most), and the mix of
// MIX below. Orders go to a pool of pets given a large stock, so that few fail for
// stock; a hot key on a small plan is refused (429) past its quota, as it would be.
/* global fetch */
import pg from 'pg';
import { encodeCursor } from '../references/work.mjs';
import { percentile, runOpenLoop } from './open-loop.mjs';
import { startProcess, stopProcess, waitForOk } from './processes.mjs';

/** What share of the requests does what, in %. */
const MIX = [
  { kind: 'list', share: 33.3, text: 'GET /pets lists (first pages, by category, by status, deep cursors)' },
  { kind: 'lookup', share: 16.7, text: 'GET /pets?id=N' },
  { kind: 'inventory', share: 16.7, text: 'GET /store/inventory pages and GET /store/inventory/{petId}' },
  { kind: 'order', share: 20, text: 'POST /store/orders with an Idempotency-Key (1 in 10 a retry of an earlier one)' },
  { kind: 'cancel', share: 4, text: 'DELETE /store/orders/{id} of an order placed before' },
  { kind: 'category', share: 4.3, text: 'GET /categories, GET /categories/{id}' },
  { kind: 'restock', share: 2, text: 'PUT /store/inventory/{petId} (admin key)' },
  { kind: 'keyless', share: 3, text: 'GET /pets without a key (401, or 429 past the address quota)' },
];
const PLANS = ['free', 'pro', 'business', 'enterprise'];
/** The busiest keys are enterprise ones; the rest take the plans in turn. */
const ENTERPRISE_FIRST = 4;
const ZIPF_EXPONENT = 1;
/** Pets that take the orders and restocks, and their stock at the start of each run. */
const POOL_PETS = 1_000;
const POOL_STOCK = 1_000_000;
const RETRY_SHARE = 0.1;
/** The p99 ≤ 8 × p50 check, in every window after the first (the warm-up). */
const TAIL_LIMIT = 8;

/** A seeded generator of floats in [0, 1) (mulberry32): the same sequence for every build. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The cumulative shares of `weights`. */
function cumulative(weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  let total = 0;
  return weights.map((weight) => (total += weight / sum));
}

/** The cumulative shares of a Zipf distribution over `n` ranks: rank r weighs 1 / r^exponent. */
const zipf = (n, exponent) => cumulative(Array.from({ length: n }, (_, rank) => 1 / (rank + 1) ** exponent));

/** The first index whose cumulative share reaches `u`. */
function pick(cumulative, u) {
  let [low, high] = [0, cumulative.length - 1];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cumulative[mid] < u) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Issues `count` keys (read and write scopes) through the admin API, `concurrency` at a time; their secrets by rank. */
async function issueKeys(server, adminKey, count, concurrency = 8) {
  const keys = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const rank = next++;
      const plan = rank < ENTERPRISE_FIRST ? 'enterprise' : PLANS[rank % PLANS.length];
      const body = { name: `steady load ${rank + 1}`, plan, scopes: ['read', 'write'] };
      if (plan === 'enterprise') body.limits = { perMinute: 1_000_000, perDay: 1_000_000_000 };
      const res = await fetch(`${server.base}/admin/api-keys`, {
        method: 'POST',
        headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await res.json();
      if (res.status !== 201) throw new Error(`issuing a ${plan} key: ${res.status} ${JSON.stringify(answer)}`);
      keys[rank] = { secret: answer.key, plan };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return keys;
}

/** The ids the traffic asks for, and the pool of pets, stocked and with no orders (again before every run). */
async function prepare(databaseUrl, data) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const range = (await db.query('SELECT min(id)::bigint AS first, max(id)::bigint AS last FROM pets')).rows[0];
    const categories = (await db.query('SELECT id FROM categories ORDER BY id')).rows.map((row) => Number(row.id));
    const pool = (
      await db.query('SELECT id FROM pets WHERE category_id = $1 AND id <> $2 ORDER BY id LIMIT $3', [
        data.categoryId,
        data.hotPetId,
        POOL_PETS,
      ])
    ).rows.map((row) => Number(row.id));
    return { firstPet: Number(range.first), lastPet: Number(range.last), categories, pool };
  } finally {
    await db.end();
  }
}

async function resetPool(databaseUrl, pool) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('DELETE FROM orders WHERE pet_id = ANY($1::bigint[])', [pool]);
    await db.query("UPDATE pets SET status = 'available' WHERE id = ANY($1::bigint[])", [pool]);
    await db.query('UPDATE inventory SET quantity = $2 WHERE pet_id = ANY($1::bigint[])', [pool, POOL_STOCK]);
    await db.query('VACUUM ANALYZE orders, inventory');
  } finally {
    await db.end();
  }
}

/** The request sequence of one run: `next(i)` for the open-loop generator. */
function traffic({ keys, adminKey, ids, tag }) {
  const random = seeded(35);
  const keyShares = zipf(keys.length, ZIPF_EXPONENT);
  const mixShares = cumulative(MIX.map((m) => m.share));
  const any = (list) => list[Math.floor(random() * list.length)];
  const anyPet = () => ids.firstPet + Math.floor(random() * (ids.lastPet - ids.firstPet + 1));
  const sent = []; // the last orders sent, for retries: { rank, idempotencyKey, body }
  const placed = []; // orders answered 201 and not cancelled yet: { rank, id }
  let orders = 0;
  const keyed = (rank) => ({ 'X-API-Key': keys[rank].secret });

  const order = () => {
    if (sent.length && random() < RETRY_SHARE) return { ...any(sent), retry: true };
    const entry = {
      rank: pick(keyShares, random()),
      idempotencyKey: `${tag}-${++orders}`,
      body: JSON.stringify({ petId: any(ids.pool), quantity: 1 + Math.floor(random() * 3) }),
    };
    sent.push(entry);
    if (sent.length > 500) sent.shift();
    return entry;
  };
  const categoryRead = (rank) =>
    random() < 0.5
      ? { path: '/categories', headers: keyed(rank) }
      : { path: `/categories/${any(ids.categories)}`, headers: keyed(rank), label: 'GET /categories/{id}' };

  return () => {
    const { kind } = MIX[pick(mixShares, random())];
    const rank = pick(keyShares, random());
    const u = random();
    switch (kind) {
      case 'list': {
        const headers = keyed(rank);
        if (u < 0.4) return { path: '/pets', headers };
        if (u < 0.6)
          return { path: `/pets?categoryId=${any(ids.categories)}`, headers, label: 'GET /pets?categoryId=C' };
        if (u < 0.7) return { path: '/pets?status=available', headers };
        return { path: `/pets?cursor=${encodeCursor(anyPet())}`, headers, label: 'GET /pets?cursor=(deep)' };
      }
      case 'lookup':
        return { path: `/pets?id=${anyPet()}`, headers: keyed(rank), label: 'GET /pets?id=N' };
      case 'inventory': {
        const headers = keyed(rank);
        if (u < 0.4) return { path: '/store/inventory', headers };
        if (u < 0.7) {
          const path = `/store/inventory?cursor=${encodeCursor(anyPet())}`;
          return { path, headers, label: 'GET /store/inventory?cursor=(deep)' };
        }
        return { path: `/store/inventory/${any(ids.pool)}`, headers, label: 'GET /store/inventory/{petId}' };
      }
      case 'order': {
        const { rank: owner, idempotencyKey, body, retry } = order();
        return {
          method: 'POST',
          path: '/store/orders',
          headers: { ...keyed(owner), 'Idempotency-Key': idempotencyKey },
          body,
          label: retry ? 'POST /store/orders (a retry)' : 'POST /store/orders',
          onAnswer: (status, text) => {
            if (status !== 201 || retry) return;
            try {
              const { id } = JSON.parse(text);
              if (id !== undefined) placed.push({ rank: owner, id });
            } catch {
              // not JSON: nothing to cancel later
            }
          },
        };
      }
      case 'cancel': {
        if (!placed.length) return categoryRead(rank);
        const at = Math.floor(random() * placed.length);
        const { rank: owner, id } = placed[at];
        placed[at] = placed.at(-1);
        placed.pop();
        return {
          method: 'DELETE',
          path: `/store/orders/${id}`,
          headers: keyed(owner),
          label: 'DELETE /store/orders/{id}',
        };
      }
      case 'category':
        return categoryRead(rank);
      case 'restock':
        return {
          method: 'PUT',
          path: `/store/inventory/${any(ids.pool)}`,
          headers: { 'X-API-Key': adminKey },
          body: JSON.stringify({ quantity: POOL_STOCK }),
          label: 'PUT /store/inventory/{petId}',
        };
      case 'keyless':
        return { path: '/pets', label: 'GET /pets (no key)' };
      default:
        throw new Error(`no such kind of request: ${kind}`);
    }
  };
}

/** Whether p99 ≤ TAIL_LIMIT × p50 in every window after the first; null with a single window. */
function tailCheck(windows) {
  const checked = windows.slice(1).filter((w) => w.p99OverP50 !== null);
  if (!checked.length) return { met: null, worst: null, missed: [] };
  const worst = checked.reduce((a, b) => (b.p99OverP50 > a.p99OverP50 ? b : a));
  const missed = checked.filter((w) => w.p99OverP50 > TAIL_LIMIT).map((w) => `${w.fromS}–${w.toS} s`);
  return {
    met: missed.length === 0,
    worst: { ratio: worst.p99OverP50, window: `${worst.fromS}–${worst.toS} s` },
    missed,
  };
}

/**
 * Runs the steady load on each of `builds` (`{ name, script }`) in turn, each a fresh
 * process with `env` on `databaseUrl`, which holds the bench's `data`.
 */
export async function runSteadyLoad({ builds, env, databaseUrl, data, settings, adminKey, logDir, log }) {
  const ids = await prepare(databaseUrl, data);
  let keys;
  const result = {
    settings: { ...settings, mix: MIX, zipfExponent: ZIPF_EXPONENT, poolPets: ids.pool.length },
    builds: {},
  };
  for (const build of builds) {
    await resetPool(databaseUrl, ids.pool);
    const server = await startProcess({ name: `steady-${build.name}`, script: build.script, env, logDir });
    try {
      await waitForOk(server, '/health/ready');
      if (!keys) {
        keys = await issueKeys(server, adminKey, settings.keys);
        log(
          `  ${keys.length} keys issued: ${PLANS.map((p) => `${keys.filter((k) => k.plan === p).length} ${p}`).join(', ')}`,
        );
      }
      const end = new Date(Date.now() + settings.seconds * 1000).toTimeString().slice(0, 8);
      log(`  ${build.name}: ${settings.rate} req/s for ${settings.seconds} s (until about ${end})`);
      const next = traffic({ keys, adminKey, ids, tag: `steady-${build.name}-${Date.now()}` });
      const run = await runOpenLoop({
        port: server.port,
        pid: server.pid,
        rate: settings.rate,
        seconds: settings.seconds,
        windowSeconds: settings.window,
        next,
      });
      for (const w of run.windows) log(`    ${windowRow(w)}`);
      result.builds[build.name] = { script: build.script, ...run, tail: tailCheck(run.windows) };
    } finally {
      await stopProcess(server);
    }
  }
  return result;
}

const pad = (text, width) => String(text).padStart(width);
const fixed = (value, digits) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));

function notOk(w) {
  const statuses = Object.entries(w.statuses)
    .filter(([status]) => Number(status) >= 300)
    .map(([status, n]) => `${status}: ${n}`);
  const errors = Object.entries(w.errors).map(([error, n]) => `${error}: ${n}`);
  return [...statuses, ...errors].join(', ') || 'none';
}

const KIND_HEAD = `${'request'.padEnd(36)}${pad('answered', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('max ms', 9)}  not 2xx`;

function kindRow(k) {
  return (
    `${k.label.padEnd(36)}${pad(k.answered, 9)}${pad(fixed(k.p50, 1), 9)}${pad(fixed(k.p99, 1), 9)}` +
    `${pad(fixed(k.max, 0), 9)}  ${notOk({ statuses: k.statuses, errors: {} })}`
  );
}

const HEAD = `${'window'.padEnd(12)}${pad('sent', 7)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('p99/p50', 9)}${pad('max ms', 9)}${pad('CPU %', 7)}${pad('RSS MB', 8)}${pad('lag ms', 8)}  not 2xx`;

function windowRow(w) {
  return (
    `${`${w.fromS}–${w.toS} s`.padEnd(12)}${pad(w.sent, 7)}${pad(fixed(w.p50, 1), 9)}${pad(fixed(w.p99, 1), 9)}` +
    `${pad(`${fixed(w.p99OverP50, 1)}×`, 9)}${pad(fixed(w.max, 0), 9)}${pad(fixed(w.cpuPercent, 0), 7)}` +
    `${pad(fixed(w.rssMb, 0), 8)}${pad(fixed(w.maxLagMs, 1), 8)}  ${notOk(w)}`
  );
}

/** The median, over the windows after the first, of `figure`'s ratio between builds `a` and `b`, window by window. */
function windowRatio(a, b, figure) {
  const values = [];
  for (let i = 1; i < Math.min(a.windows.length, b.windows.length); i++) {
    const [x, y] = [figure(a.windows[i]), figure(b.windows[i])];
    if (x !== null && y) values.push(x / y);
  }
  return percentile(
    values.sort((p, q) => p - q),
    0.5,
  );
}

export function steadyLoadText(steady) {
  const s = steady.settings;
  const lines = [
    `Steady load: ${s.rate} req/s open loop (latency from each request's scheduled send), ${s.seconds} s a build in ` +
      `${s.window} s windows, fresh process, machine PostgreSQL; ${s.keys.toLocaleString('en')} API keys of every plan, ` +
      `Zipf-like (exponent ${s.zipfExponent}); orders on ${s.poolPets} pets`,
    `  mix: ${s.mix.map((m) => `${Math.round(m.share)} % ${m.text}`).join('; ')}`,
    '  CPU % of one core and RSS (max) of the server, sampled every second; lag: how late this process sent (max)',
  ];
  for (const [name, build] of Object.entries(steady.builds)) {
    lines.push(`  ${name}: node ${build.script}`, `    ${HEAD}`, ...build.windows.map((w) => `    ${windowRow(w)}`));
    const { met, worst, missed } = build.tail;
    const verdict =
      met === null
        ? 'not checked (a single window)'
        : `${met ? 'met' : `MISSED in ${missed.join(', ')}`} (worst ${worst.ratio.toFixed(1)}× in ${worst.window})`;
    lines.push(`    p99 ≤ ${TAIL_LIMIT} × p50 in every window after the first: ${verdict}`);
    const after = build.windows.length > 1 ? 'the windows after the first' : 'the run';
    lines.push(`    by kind of request, ${after}:`, `      ${KIND_HEAD}`);
    const kinds = [...build.kinds].sort((a, b) => b.answered - a.answered);
    for (const k of kinds) lines.push(`      ${kindRow(k)}`);
  }
  const { service, baseline } = steady.builds;
  if (service && baseline) {
    const r = (figure) => fixed(windowRatio(service, baseline, figure), 2);
    lines.push(
      `  service/baseline, median over the windows after the first, window by window: p50 ${r((w) => w.p50)}×, ` +
        `p99 ${r((w) => w.p99)}×, CPU ${r((w) => w.cpuPercent)}×, RSS ${r((w) => w.rssMb)}×`,
    );
  }
  return lines.join('\n');
}
