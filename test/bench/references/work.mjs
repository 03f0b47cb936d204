// The work both reference servers of `npm run bench` do for the measured requests,
// exactly what the service does for them and nothing it does on top (request id,
// log line, metrics, security headers, ETag, the draft RateLimit headers): find the
// API key by its SHA-256 hash (cached 10 s), count a minute and a day window in
// memory, set X-RateLimit-*, run the same SQL as named prepared statements on a pool
// of 10, with the pet reads of one turn of the event loop sent together as the
// service sends them (reads.mjs), answer the same JSON and status codes. Only the HTTP layer differs between
// the two references (minimal.mjs: node:http; floor.mjs: NestJS on Express), so they
// share this module. Inputs are plain strings and objects; `res` is Node's
// ServerResponse (Express's response extends it).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { URL, URLSearchParams } from 'node:url';
import pg from 'pg';
import { PetReads } from './reads.mjs';

const KEY_CACHE_TTL_MS = 10_000;
const MAX_CACHED_KEYS = 10_000;
const MAX_KEY_LENGTH = 200;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** config/plans.yaml as shipped; enterprise keys carry their own limits. */
const PLANS = { free: [60, 1_000], pro: [300, 10_000], business: [1_000, 100_000] };
const STATUSES = ['available', 'pending', 'sold'];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_IDS = 100;
export const BODY_LIMIT_BYTES = 16 * 1024;
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A refusal: the status, the Error body and headers to add. */
export class Refusal extends Error {
  constructor(status, code, message, headers = undefined) {
    super(message);
    this.status = status;
    this.body = { code, message, status };
    this.headers = headers;
  }
}

const invalid = (problems) => new Refusal(400, 'VALIDATION_FAILED', `Invalid request: ${problems.join('; ')}`);

// Plain decimal integers only, as the service's strict query and body parsing.
const INT = /^(0|-?[1-9]\d{0,15})$/;
const POSITIVE_ID = /^[1-9]\d{0,18}$/;

const KEY_BY_HASH =
  'SELECT id, plan, scopes, limit_per_minute, limit_per_day, created_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL';
const LOCK_STOCK =
  'SELECT i.quantity, p.status FROM inventory i JOIN pets p ON p.id = i.pet_id WHERE i.pet_id = $1 FOR UPDATE OF i';
const TAKE_STOCK = 'UPDATE inventory SET quantity = quantity - $2 WHERE pet_id = $1';
const MARK_PENDING = "UPDATE pets SET status = 'pending' WHERE id = $1";
const INSERT_ORDER =
  'INSERT INTO orders (pet_id, quantity, ship_date, complete, owner_key_id) VALUES ($1, $2, $3, false, $4) RETURNING id';

/** The keyset page query for one combination of filters: one named statement each. */
function pageStatement(mask) {
  const where = [];
  let n = 0;
  if (mask & 1) where.push(`id > $${++n}`);
  if (mask & 2) where.push(`status = ANY($${++n}::pet_status[])`);
  if (mask & 4) where.push(`category_id = $${++n}`);
  if (mask & 8) where.push(`id = ANY($${++n}::bigint[])`);
  const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return {
    name: `bench_pets_page_${mask}`,
    text: `SELECT id, name, category_id, status FROM pets${filter} ORDER BY id LIMIT $${n + 1}`,
  };
}
const PAGE_STATEMENTS = Array.from({ length: 16 }, (_, mask) => pageStatement(mask));

const toPet = (row) => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.category_id),
  status: row.status,
});

export function encodeCursor(lastId) {
  return Buffer.from(`v1:${lastId}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = /^v1:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** `?status&categoryId&id&limit&cursor` parsed and validated by hand, as strictly as the service. */
export function parseListQuery(search) {
  const query = { statuses: undefined, categoryId: undefined, ids: undefined, limit: DEFAULT_LIMIT, afterId: null };
  const problems = [];
  const seen = new Set();
  const once = (name) => (seen.has(name) ? problems.push(`${name} must be given once`) : seen.add(name));
  const integer = (name, value, min, max) => {
    const n = INT.test(value) ? Number(value) : NaN;
    if (!(n >= min && n <= max)) problems.push(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  for (const [name, value] of new URLSearchParams(search)) {
    if (name === 'id') {
      (query.ids ??= []).push(integer('id', value, 1, Number.MAX_SAFE_INTEGER));
    } else if (name === 'status') {
      if (!STATUSES.includes(value)) problems.push(`each value in status must be one of ${STATUSES.join(', ')}`);
      (query.statuses ??= []).push(value);
    } else if (name === 'categoryId') {
      once(name);
      query.categoryId = integer(name, value, 1, Number.MAX_SAFE_INTEGER);
    } else if (name === 'limit') {
      once(name);
      query.limit = integer(name, value, 1, MAX_LIMIT);
    } else if (name === 'cursor') {
      once(name);
      query.afterId = value.length <= 64 ? decodeCursor(value) : null;
      if (query.afterId === null) problems.push('cursor is not a valid paging cursor');
    } else {
      problems.push(`property ${name} should not exist`);
    }
  }
  if (query.ids && query.ids.length > MAX_IDS) problems.push(`id must contain no more than ${MAX_IDS} elements`);
  if (problems.length) throw invalid(problems);
  return query;
}

/** A POST /store/orders body (already a parsed object) checked by hand. */
export function parseOrderBody(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid(['request body must be a JSON object']);
  }
  const problems = [];
  for (const name of Object.keys(body)) {
    if (name !== 'petId' && name !== 'quantity' && name !== 'shipDate')
      problems.push(`property ${name} should not exist`);
  }
  const { petId, quantity, shipDate } = body;
  if (!Number.isSafeInteger(petId) || petId < 1) problems.push('petId must be a positive integer');
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1000) problems.push('quantity must be from 1 to 1000');
  let ship = null;
  if (shipDate !== undefined) {
    ship = typeof shipDate === 'string' && /^\d{4}-\d\d-\d\dT/.test(shipDate) ? new Date(shipDate) : null;
    if (!ship || Number.isNaN(ship.getTime())) problems.push('shipDate must be a valid ISO 8601 date string');
  }
  if (problems.length) throw invalid(problems);
  return { petId, quantity, shipDate: ship };
}

/** `Link: <same path and query, next cursor>; rel="next"`, built as the service builds it. */
function nextPageLink(originalUrl, lastId) {
  const url = new URL(originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', encodeCursor(lastId));
  return `<${url.pathname}${url.search}>; rel="next"`;
}

export class ReferenceWork {
  constructor(env = process.env) {
    this.pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
    this.pets = new PetReads(this.pool, (mask) => PAGE_STATEMENTS[mask], env);
    this.keys = new Map();
    this.counters = new Map();
    const deprecatedAt = new Date(env.PETS_GET_BY_ID_DEPRECATED_AT || '2026-11-01T00:00:00Z');
    this.sunset = new Date(env.PETS_GET_BY_ID_SUNSET || '2027-06-30T00:00:00Z');
    this.deprecation = `@${Math.floor(deprecatedAt.getTime() / 1000)}`;
    this.sunsetHeader = this.sunset.toUTCString();
  }

  /**
   * Authenticates (a missing or unknown key is counted per address under the free
   * plan, then refused 401), counts the request, sets X-RateLimit-*, and checks the
   * scope. Resolves to the key; throws a Refusal.
   */
  async admit(secret, address, scope, res) {
    const key = secret && secret.length <= MAX_KEY_LENGTH ? await this.resolve(secret) : null;
    this.count(key, address, res);
    if (!key) {
      throw secret
        ? new Refusal(401, 'INVALID_API_KEY', 'The API key is unknown or revoked')
        : new Refusal(401, 'UNAUTHENTICATED', 'Send an API key in the X-API-Key header');
    }
    if (!key.scopes.includes(scope)) {
      throw new Refusal(403, 'INSUFFICIENT_SCOPE', `This operation needs an API key with the '${scope}' scope`);
    }
    return key;
  }

  async resolve(secret) {
    const hash = createHash('sha256').update(secret, 'utf8').digest('hex');
    const cached = this.keys.get(hash);
    const now = Date.now();
    if (cached && cached.expiresAt > now) return cached.key;
    const { rows } = await this.pool.query({ name: 'bench_key_by_hash', text: KEY_BY_HASH, values: [hash] });
    const row = rows[0];
    const key = row
      ? {
          id: Number(row.id),
          scopes: row.scopes,
          client: `k${row.id}.${row.created_at.getTime()}`,
          limits:
            row.plan === 'enterprise' && row.limit_per_minute !== null
              ? [row.limit_per_minute, row.limit_per_day]
              : (PLANS[row.plan] ?? PLANS.free),
        }
      : null;
    if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
    this.keys.set(hash, { key, expiresAt: now + KEY_CACHE_TTL_MS });
    return key;
  }

  /** Fixed windows anchored at the client's first request, as the service's in-memory limiter. */
  count(key, address, res) {
    const client = key ? key.client : `ip:${address}`;
    const [perMinute, perDay] = key ? key.limits : PLANS.free;
    const now = Date.now();
    let c = this.counters.get(client);
    if (!c) this.counters.set(client, (c = { minuteStart: now, minute: 0, dayStart: now, day: 0 }));
    if (c.minuteStart + MINUTE_MS <= now) {
      c.minuteStart = now;
      c.minute = 0;
    }
    if (c.dayStart + DAY_MS <= now) {
      c.dayStart = now;
      c.day = 0;
    }
    const full = c.minute >= perMinute || c.day >= perDay;
    if (!full) {
      c.minute += 1;
      c.day += 1;
    }
    const minuteLeft = Math.max(0, perMinute - c.minute);
    const dayLeft = Math.max(0, perDay - c.day);
    // The window that binds most (a tie goes to the shorter one); on a refusal, the full one that frees last.
    const useDay = full ? c.day >= perDay : dayLeft < minuteLeft;
    const resetAt = useDay ? c.dayStart + DAY_MS : c.minuteStart + MINUTE_MS;
    res.setHeader('X-RateLimit-Limit', String(useDay ? perDay : perMinute));
    res.setHeader('X-RateLimit-Remaining', String(useDay ? dayLeft : minuteLeft));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
    if (full) {
      const retry = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
      const window = useDay ? `${perDay} requests per day` : `${perMinute} requests per minute`;
      throw new Refusal(429, 'RATE_LIMIT_EXCEEDED', `Rate limit exceeded: ${window}; retry in ${retry} s`, {
        'Retry-After': retry,
      });
    }
  }

  /** GET /pets: one keyset page, with `Link: rel="next"` when more exist. */
  async listPets(originalUrl, search, res) {
    const q = parseListQuery(search);
    // Values in the order pageStatement numbers them.
    const filters = [q.afterId ?? undefined, q.statuses, q.categoryId, q.ids];
    const values = [];
    let mask = 0;
    filters.forEach((value, bit) => {
      if (value === undefined) return;
      mask |= 1 << bit;
      values.push(value);
    });
    values.push(q.limit + 1);
    const rows = await this.pets.page(q, mask, values);
    const count = Math.min(rows.length, q.limit);
    const pets = new Array(count);
    for (let i = 0; i < count; i++) pets[i] = toPet(rows[i]);
    if (rows.length > q.limit) res.setHeader('Link', nextPageLink(originalUrl, pets[count - 1].id));
    return pets;
  }

  /** GET /pets/{petId} (deprecated): the deprecation headers on every answer, 410 from the sunset. */
  async getPet(petIdText, res) {
    res.setHeader('Deprecation', this.deprecation);
    res.setHeader('Sunset', this.sunsetHeader);
    res.setHeader('Link', `</pets?id=${encodeURIComponent(petIdText)}>; rel="successor-version"`);
    if (Date.now() >= this.sunset.getTime()) {
      throw new Refusal(
        410,
        'OPERATION_SUNSET',
        `GET /pets/{petId} was withdrawn on ${this.sunset.toISOString()}; use GET /pets?id=${encodeURIComponent(petIdText)}`,
      );
    }
    if (!POSITIVE_ID.test(petIdText) || BigInt(petIdText) > 9223372036854775807n) {
      throw invalid(['petId must be a positive 64-bit integer']);
    }
    const id = Number(petIdText);
    const notFound = () => new Refusal(404, 'PET_NOT_FOUND', `Pet ${petIdText} does not exist`);
    if (!Number.isSafeInteger(id)) throw notFound();
    const row = await this.pets.byId(id);
    if (!row) throw notFound();
    return toPet(row);
  }

  /** POST /store/orders as a naive transaction: BEGIN; SELECT … FOR UPDATE; UPDATE; INSERT; COMMIT. */
  async placeOrder(key, body, res) {
    const { petId, quantity, shipDate } = parseOrderBody(body);
    const client = await this.pool.connect();
    let id;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query({ name: 'bench_lock_stock', text: LOCK_STOCK, values: [petId] });
      const line = rows[0];
      if (!line) throw new Refusal(422, 'PET_NOT_FOUND', `petId ${petId} does not refer to an existing pet`);
      if (line.status !== 'available') {
        throw new Refusal(409, 'PET_NOT_AVAILABLE', `Pet ${petId} is ${line.status}, not available for ordering`);
      }
      if (line.quantity < quantity) {
        throw new Refusal(
          409,
          'INSUFFICIENT_STOCK',
          `Pet ${petId} has ${line.quantity} unit(s) in stock; ${quantity} requested`,
        );
      }
      await client.query({ name: 'bench_take_stock', text: TAKE_STOCK, values: [petId, quantity] });
      if (line.quantity === quantity)
        await client.query({ name: 'bench_mark_pending', text: MARK_PENDING, values: [petId] });
      const inserted = await client.query({
        name: 'bench_insert_order',
        text: INSERT_ORDER,
        values: [petId, quantity, shipDate, key.id],
      });
      id = Number(inserted.rows[0].id);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    res.setHeader('Location', `/store/orders/${id}`);
    const order = { id, petId, quantity, complete: false };
    if (shipDate) order.shipDate = shipDate.toISOString();
    return order;
  }

  close() {
    return this.pool.end();
  }
}
