import { createPetstoreClient, type PetstoreClientOptions } from './client.js';
import { isPetstoreError, PetstoreError } from './petstore-error.js';

/** A scripted service: answers in turn, and records what it was sent and when. */
function fakeService(...answers: Array<Response | Error | ((request: Request) => Response)>) {
  const sent: Array<{ method: string; url: string; at: number; headers: Headers; body: string }> = [];
  const clock = { now: 1_000_000 };
  const waits: number[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      url: request.url,
      at: clock.now,
      headers: request.headers,
      body: await request.text(),
    });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('the fake service ran out of answers');
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(request) : answer;
  };
  const options: PetstoreClientOptions = {
    baseUrl: 'http://petstore.test',
    apiKey: 'psk_test',
    fetch,
    now: () => clock.now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      waits.push(ms);
      clock.now += ms;
    },
    random: () => 0.5,
  };
  return { sent, waits, clock, options };
}

let requestIds = 0;

/** A response as the service sends it: JSON body, request id, both windows. */
function reply(
  status: number,
  body?: unknown,
  {
    minute = [4, 60],
    retryAfter,
    headers = {},
  }: { minute?: [number, number]; retryAfter?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json',
      'X-Request-Id': `req-${++requestIds}`,
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': String(minute[0]),
      'X-RateLimit-Reset': '1795262460',
      'RateLimit-Policy': '"minute";q=5;w=60, "day";q=1000;w=86400',
      RateLimit: `"minute";r=${minute[0]};t=${minute[1]}, "day";r=900;t=86400`,
      ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
      ...headers,
    },
  });
}

const limited = (retryAfter: number) =>
  reply(
    429,
    { code: 'RATE_LIMIT_EXCEEDED', message: `Rate limit exceeded; retry in ${retryAfter} s`, status: 429 },
    { minute: [0, retryAfter], retryAfter },
  );
const unavailable = () =>
  reply(
    503,
    { code: 'SERVICE_UNAVAILABLE', message: 'A required dependency is unavailable', status: 503 },
    { retryAfter: 1 },
  );
const pet = (id: number) => ({ id, name: `pet ${id}`, categoryId: 1, status: 'available' });
const order = { id: 9, petId: 1, quantity: 1, complete: false };

describe('createPetstoreClient', () => {
  describe('429', () => {
    it('waits Retry-After, then backs off with full jitter on top while 429s repeat, and succeeds', async () => {
      const { sent, waits, options } = fakeService(limited(2), limited(2), limited(2), reply(200, [pet(1)]));
      const client = createPetstoreClient({ ...options, pacing: false });
      const pets = await client.unwrap(client.GET('/pets'));
      expect(pets).toEqual([pet(1)]);
      expect(sent).toHaveLength(4);
      // random() = 0.5: Retry-After, then + half of 250 ms, + half of 500 ms.
      expect(waits).toEqual([2_000, 2_125, 2_250]);
      expect(sent.map((s) => s.at - sent[0].at)).toEqual([0, 2_000, 4_125, 6_375]);
    });

    it('stops at once on API_KEY_BANNED with the error, its request id and the rate-limit state', async () => {
      const banned = reply(
        429,
        { code: 'API_KEY_BANNED', message: 'Banned for sending on after repeated 429 responses', status: 429 },
        { minute: [0, 900], retryAfter: 900 },
      );
      const { sent, waits, options } = fakeService(banned);
      const client = createPetstoreClient(options);
      const error: unknown = await client.GET('/pets').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetstoreError);
      expect(error).toMatchObject({
        code: 'API_KEY_BANNED',
        status: 429,
        message: 'Banned for sending on after repeated 429 responses',
        requestId: expect.stringMatching(/^req-/),
        rateLimit: { remaining: 0, retryAfterSeconds: 900 },
        operation: { method: 'get', path: '/pets' },
      });
      expect(sent).toHaveLength(1);
      expect(waits).toEqual([]);
    });

    it('gives up after maxAttempts, answering the last 429', async () => {
      const { sent, options } = fakeService(limited(1), limited(1), limited(1));
      const client = createPetstoreClient({ ...options, pacing: false, retry: { maxAttempts: 3 } });
      const error = await client.unwrap(client.GET('/pets')).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
      expect(sent).toHaveLength(3);
    });

    it('does not wait beyond maxElapsedMs', async () => {
      const { sent, waits, options } = fakeService(limited(30));
      const client = createPetstoreClient({ ...options, pacing: false, retry: { maxElapsedMs: 10_000 } });
      const { error } = await client.GET('/pets');
      expect(error?.code).toBe('RATE_LIMIT_EXCEEDED');
      expect([sent.length, waits]).toEqual([1, []]);
    });
  });

  describe('503 and network errors', () => {
    it('retries an idempotent request with exponential backoff, never under Retry-After', async () => {
      const { sent, waits, options } = fakeService(unavailable(), new TypeError('fetch failed'), reply(200, pet(1)));
      const client = createPetstoreClient({ ...options, random: () => 0.999_999 });
      const found = await client.unwrap(client.GET('/pets/{petId}', { params: { path: { petId: 1 } } }));
      expect(found).toEqual(pet(1));
      expect(sent).toHaveLength(3);
      expect(waits).toEqual([1_000, 499]);
    });

    it('does not retry a POST that is not idempotent', async () => {
      const { sent, options } = fakeService(unavailable());
      const client = createPetstoreClient(options);
      const { error } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
      expect(error?.code).toBe('SERVICE_UNAVAILABLE');
      expect(sent).toHaveLength(1);
      const { options: failing, sent: once } = fakeService(new TypeError('fetch failed'));
      const other = createPetstoreClient(failing);
      await expect(other.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })).rejects.toThrow('fetch failed');
      expect(once).toHaveLength(1);
    });

    it('retries an order with one Idempotency-Key per order, the same in every retry', async () => {
      const { sent, options } = fakeService(
        unavailable(),
        new TypeError('fetch failed'),
        reply(201, order),
        reply(201, { ...order, id: 10 }),
      );
      let keys = 0;
      const client = createPetstoreClient({ ...options, idempotencyKey: () => `key-${++keys}` });
      const body = { petId: 1, quantity: 1 };
      await client.unwrap(client.POST('/store/orders', { body }));
      await client.unwrap(client.POST('/store/orders', { body }));
      expect(sent.map((s) => s.headers.get('Idempotency-Key'))).toEqual(['key-1', 'key-1', 'key-1', 'key-2']);
      expect(sent.map((s) => s.body)).toEqual(Array(4).fill(JSON.stringify(body)));
    });

    it("keeps the caller's own Idempotency-Key", async () => {
      const { sent, options } = fakeService(unavailable(), reply(201, order));
      const client = createPetstoreClient(options);
      await client.POST('/store/orders', {
        body: { petId: 1, quantity: 1 },
        params: { header: { 'Idempotency-Key': 'mine' } },
      });
      expect(sent.map((s) => s.headers.get('Idempotency-Key'))).toEqual(['mine', 'mine']);
    });
    it("names the order's operation in its error, the Idempotency-Key added or not", async () => {
      const { options } = fakeService(
        reply(409, { code: 'INSUFFICIENT_STOCK', message: 'Pet 1 has 0 unit(s) in stock; 1 requested', status: 409 }),
      );
      const client = createPetstoreClient(options);
      const error = await client
        .unwrap(client.POST('/store/orders', { body: { petId: 1, quantity: 1 } }))
        .catch((e: unknown) => e);
      expect(isPetstoreError(error, 'post', '/store/orders') && error.code).toBe('INSUFFICIENT_STOCK');
    });
  });

  describe('pacing', () => {
    it('waits for the reset of a spent window instead of sending into a 429', async () => {
      const { sent, waits, options } = fakeService(
        reply(200, [], { minute: [1, 30] }),
        reply(200, [], { minute: [0, 28] }),
        reply(200, [], { minute: [4, 60] }),
      );
      const client = createPetstoreClient(options);
      for (let i = 0; i < 3; i++) await client.unwrap(client.GET('/categories'));
      expect(waits).toEqual([28_000]);
      expect(sent[2].at - sent[1].at).toBe(28_000);
      expect(client.rateLimit()?.windows[0]).toMatchObject({ name: 'minute', remaining: 4 });
    });

    it('is per client: another key is not held back', async () => {
      const first = fakeService(reply(200, [], { minute: [0, 30] }));
      const second = fakeService(reply(200, []));
      const a = createPetstoreClient(first.options);
      const b = createPetstoreClient({ ...second.options, now: first.options.now });
      await a.GET('/categories');
      await b.GET('/categories');
      expect(second.waits).toEqual([]);
    });

    it('can be switched off', async () => {
      const { waits, options } = fakeService(reply(200, [], { minute: [0, 30] }), reply(200, []));
      const client = createPetstoreClient({ ...options, pacing: false });
      await client.GET('/categories');
      await client.GET('/categories');
      expect(waits).toEqual([]);
    });

    it('refuses to wait beyond the time budget, without sending', async () => {
      const { sent, options } = fakeService(reply(200, [], { minute: [0, 50] }));
      const client = createPetstoreClient({ ...options, retry: { maxElapsedMs: 20_000 } });
      await client.GET('/categories');
      const error = await client.GET('/categories').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, requestId: null });
      expect(sent).toHaveLength(1);
    });
  });

  describe('abort', () => {
    it('cancels a request while it waits, sending nothing more', async () => {
      const { sent, options } = fakeService(limited(60));
      // The real timer: the abort must end the wait, not its end.
      const client = createPetstoreClient({ ...options, sleep: undefined, pacing: false });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('cancelled by the caller')), 20);
      await expect(client.GET('/pets', { signal: controller.signal })).rejects.toThrow('cancelled by the caller');
      expect(sent).toHaveLength(1);
    });

    it('sends nothing when already aborted', async () => {
      const { sent, options } = fakeService();
      const client = createPetstoreClient(options);
      await expect(client.GET('/pets', { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow(
        'too late',
      );
      expect(sent).toHaveLength(0);
    });
  });

  describe('paging', () => {
    it('follows Link rel=next from page to page, keeping the query', async () => {
      const { sent, options } = fakeService(
        reply(200, [pet(1), pet(2)], {
          headers: { Link: '</pets?limit=2&status=available&status=pending&cursor=Mg>; rel="next"' },
        }),
        reply(200, [pet(3), pet(4)], {
          headers: { Link: '</pets?limit=2&status=available&status=pending&cursor=NA>; rel="next"' },
        }),
        reply(200, [pet(5)]),
      );
      const client = createPetstoreClient(options);
      const ids: number[] = [];
      for await (const item of client.paginate('/pets', { query: { limit: 2, status: ['available', 'pending'] } }))
        ids.push(item.id);
      expect(ids).toEqual([1, 2, 3, 4, 5]);
      expect(sent.map((s) => new URL(s.url).search)).toEqual([
        '?limit=2&status=available&status=pending',
        '?limit=2&status=available&status=pending&cursor=Mg',
        '?limit=2&status=available&status=pending&cursor=NA',
      ]);
    });

    it('throws the error of a page that fails', async () => {
      const { options } = fakeService(
        reply(400, {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request: limit must not be greater than 100',
          status: 400,
        }),
      );
      const client = createPetstoreClient(options);
      const pages = client.paginate('/categories', { query: { limit: 1000 } });
      await expect(pages.next()).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    });
  });

  describe('errors', () => {
    it('maps an Error body to a PetstoreError with code, status, message, request id and quota', async () => {
      const { options } = fakeService(
        reply(
          409,
          { code: 'PET_HAS_ORDERS', message: 'Pet 3 is referenced by orders and cannot be deleted', status: 409 },
          { minute: [2, 40] },
        ),
      );
      const client = createPetstoreClient(options);
      const error: unknown = await client
        .unwrap(client.DELETE('/pets/{petId}', { params: { path: { petId: 3 } } }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'PetstoreError',
        code: 'PET_HAS_ORDERS',
        status: 409,
        message: 'Pet 3 is referenced by orders and cannot be deleted',
        requestId: expect.stringMatching(/^req-/),
        rateLimit: { limit: 5, remaining: 2 },
      });
      expect(isPetstoreError(error)).toBe(true);
      expect(isPetstoreError(error, 'get', '/pets/{petId}')).toBe(false);
      if (!isPetstoreError(error, 'delete', '/pets/{petId}')) throw new Error('not the operation of the error');
      // The operation's codes, as the document lists them: a code of another operation does not compile.
      const codes: Array<typeof error.code> = ['PET_NOT_FOUND', 'PET_HAS_ORDERS', 'RATE_LIMIT_EXCEEDED'];
      // @ts-expect-error ORDER_NOT_FOUND is not a code of DELETE /pets/{petId}
      codes.push('ORDER_NOT_FOUND');
      expect(codes).toContain(error.code);
    });

    it('types the error of a result by the operation too', async () => {
      const { options } = fakeService(
        reply(404, { code: 'CATEGORY_NOT_FOUND', message: 'Category 7 does not exist', status: 404 }),
      );
      const client = createPetstoreClient(options);
      const { error } = await client.GET('/categories/{categoryId}', { params: { path: { categoryId: 7 } } });
      // @ts-expect-error PET_HAS_ORDERS is not a code of GET /categories/{categoryId}
      const impossible: typeof error.code = 'PET_HAS_ORDERS';
      expect(impossible).toBeDefined();
      expect(error?.code).toBe('CATEGORY_NOT_FOUND');
    });

    it('keeps the status of a response that is not the Error shape', async () => {
      const { options } = fakeService(
        new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      );
      const client = createPetstoreClient(options);
      await expect(client.unwrap(client.GET('/pets'))).rejects.toMatchObject({ status: 502, requestId: null });
    });
  });

  describe('conditionalGets', () => {
    const notModified = () =>
      new Response(null, { status: 304, headers: { ETag: 'W/"v1"', 'X-RateLimit-Remaining': '4' } });

    it('sends If-None-Match with the ETag it was given, and answers a 304 with the body it kept', async () => {
      const { sent, options } = fakeService(
        reply(200, [pet(1)], { headers: { ETag: 'W/"v1"' } }),
        notModified(),
        reply(200, [pet(2)], { headers: { ETag: 'W/"v2"' } }),
      );
      const client = createPetstoreClient({ ...options, conditionalGets: true });
      expect(await client.unwrap(client.GET('/pets'))).toEqual([pet(1)]);
      const revalidated = await client.GET('/pets');
      expect({ data: revalidated.data, status: revalidated.response.status }).toEqual({ data: [pet(1)], status: 200 });
      expect(client.rateLimit()?.remaining).toBe(4); // the 304's headers
      expect(await client.unwrap(client.GET('/pets'))).toEqual([pet(2)]);
      expect(sent.map((s) => s.headers.get('If-None-Match'))).toEqual([null, 'W/"v1"', 'W/"v1"']);
    });

    it('sends no If-None-Match unless asked, nor for other URLs or methods', async () => {
      const { sent, options } = fakeService(
        reply(200, [pet(1)], { headers: { ETag: 'W/"v1"' } }),
        reply(200, [pet(1)], { headers: { ETag: 'W/"v1"' } }),
      );
      const client = createPetstoreClient(options);
      await client.GET('/pets');
      await client.GET('/pets');
      expect(sent.map((s) => s.headers.get('If-None-Match'))).toEqual([null, null]);
    });

    it('keeps the newest URLs only', async () => {
      const tagged = (id: number) => reply(200, pet(id), { headers: { ETag: `W/"p${id}"` } });
      const { sent, options } = fakeService(tagged(1), tagged(2), tagged(1), tagged(2));
      const client = createPetstoreClient({ ...options, conditionalGets: 1 });
      for (const petId of [1, 2, 1, 2]) await client.GET('/pets/{petId}', { params: { path: { petId } } });
      expect(sent.map((s) => s.headers.get('If-None-Match'))).toEqual([null, null, null, null]);
    });
  });
});
