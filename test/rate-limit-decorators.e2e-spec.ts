import { Controller, Get, Module, Param } from '@nestjs/common';
import { minutes, seconds, SkipThrottle, Throttle } from '@nestjs/throttler';
import { Public, RequireScope } from '@petstore/auth';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * The throttler decorators on routes, over the real app: a test-only controller
 * registered next to the real modules. `@Throttle` adds a route's own window per
 * client on top of the plan; `@SkipThrottle()` exempts a route from the plan (its
 * requests carry the headers but are never counted nor refused). Runs on the
 * in-process storage, and on Redis when REDIS_URL is set.
 */

@Controller('throttled')
@RequireScope('read')
class ThrottledController {
  @Get('export')
  @Throttle({ export: { limit: 3, ttl: minutes(1) } })
  export(): { ok: true } {
    return { ok: true };
  }

  @Get('write-export')
  @RequireScope('write')
  @Throttle({ export: { limit: 1, ttl: minutes(1) } })
  writeExport(): { ok: true } {
    return { ok: true };
  }

  @Get('burst')
  @Throttle({ burst: { limit: 2, ttl: seconds(10) }, export: { limit: 5, ttl: minutes(1) } })
  burst(): { ok: true } {
    return { ok: true };
  }

  @Get('plain')
  plain(): { ok: true } {
    return { ok: true };
  }

  @Get('free')
  @SkipThrottle()
  free(): { ok: true } {
    return { ok: true };
  }

  @Get('free/:id')
  @SkipThrottle()
  freeItem(@Param('id') id: string): { id: string } {
    return { id };
  }
}

@Controller('unthrottled')
@SkipThrottle()
@Public()
class UnthrottledController {
  @Get()
  list(): { ok: true } {
    return { ok: true };
  }

  @Get('counted')
  @SkipThrottle({ default: false })
  counted(): { ok: true } {
    return { ok: true };
  }

  @Get('limited')
  @Throttle({ export: { limit: 1, ttl: minutes(1) } })
  limited(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [ThrottledController, UnthrottledController] })
class ThrottleTestModule {}

const STORAGES = rateLimitStorages('rl-decorators');

/** A free plan of 5 a minute, so a test can spend it quickly. */
function plansFile(): string {
  return temporaryPlansFile(
    `plans:
  free: { perMinute: 5, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
  enterprise: per-key
`,
  );
}

const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);
const limit = (res: request.Response) => Number(res.headers['x-ratelimit-limit']);

describe.each(STORAGES)('throttler decorators on routes, %s storage (e2e)', (_storage, storageEnv) => {
  let t: TestApp;
  let ipCounter = 0;
  /** A fresh client address for each test (TRUST_PROXY: each speaks from an X-Forwarded-For of its own). */
  const newIp = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    t = await createTestApp(
      { ...storageEnv(), PLANS_FILE: plansFile(), TRUST_PROXY: 'loopback' },
      { rootModule: AppModule.register({ modules: [ThrottleTestModule] }) },
    );
    await t.reset();
  });
  afterAll(() => t.close());

  describe('@Throttle', () => {
    it("adds a route's own window per key: 429 in the Error shape with Retry-After and the route's headers", async () => {
      const key = await t.key(['read'], 'pro');
      const get = () => request(t.http).get('/throttled/export').set('X-API-Key', key);
      const allowed = [await get().expect(200), await get().expect(200), await get().expect(200)];
      // The route's window binds more than the plan's 300 a minute.
      expect(allowed.map(limit)).toEqual([3, 3, 3]);
      expect(allowed.map(remaining)).toEqual([2, 1, 0]);
      expect(allowed[0].headers['ratelimit-policy']).toBe(
        '"minute";q=300;w=60, "day";q=10000;w=86400, "export";q=3;w=60',
      );
      expect(allowed[2].headers.ratelimit).toMatch(/^"minute";r=297;t=\d+, "day";r=9997;t=\d+, "export";r=0;t=\d+$/);

      const refused = await get().expect(429);
      expect(refused.body).toEqual({
        code: 'RATE_LIMIT_EXCEEDED',
        message: expect.stringMatching(
          /^Rate limit exceeded: 3 requests per 60 s on this route for this API key; retry in \d+ s$/,
        ),
        status: 429,
      });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(61);
      expect(limit(refused)).toBe(3);
      expect(remaining(refused)).toBe(0);
      const reset = Number(refused.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + retryAfter - 1);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
      // Nothing of the throttler's own header set (suffixed names, seconds-until reset).
      expect(Object.keys(refused.headers).filter((h) => /ratelimit-.+-|retry-after-/i.test(h))).toEqual([]);

      // Only this route, only this key: the plan still has room, another key has its own window.
      const plain = await request(t.http).get('/throttled/plain').set('X-API-Key', key).expect(200);
      expect(limit(plain)).toBe(300);
      expect(remaining(plain)).toBe(300 - 5); // the plan counts every request, the refused one too
      const other = await t.key(['read'], 'pro');
      const first = await request(t.http).get('/throttled/export').set('X-API-Key', other).expect(200);
      expect(remaining(first)).toBe(2);
    });

    it("describes the plan's window when it binds more than the route's", async () => {
      const key = await t.key(['read']); // free: 5 a minute, against the route's 3
      const ip = newIp();
      const get = (path: string) => request(t.http).get(path).set('X-API-Key', key).set('X-Forwarded-For', ip);
      await get('/throttled/plain').expect(200);
      await get('/throttled/plain').expect(200);
      await get('/throttled/plain').expect(200);
      const res = await get('/throttled/export').expect(200);
      expect(limit(res)).toBe(5);
      expect(remaining(res)).toBe(1);
    });

    it('takes every named window of a route: the one that binds most is described, either one refuses', async () => {
      const key = await t.key(['read'], 'pro');
      const get = () => request(t.http).get('/throttled/burst').set('X-API-Key', key);
      const first = await get().expect(200);
      const policy = String(first.headers['ratelimit-policy']).split(', ');
      expect(policy.sort()).toEqual(
        ['"minute";q=300;w=60', '"day";q=10000;w=86400', '"burst";q=2;w=10', '"export";q=5;w=60'].sort(),
      );
      expect([limit(first), remaining(first)]).toEqual([2, 1]);
      await get().expect(200);
      const refused = await get().expect(429);
      expect(refused.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(limit(refused)).toBe(2);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(11);
    });

    it('is counted after authentication and scope: a refused credential never spends the route window', async () => {
      const reader = await t.key(['read'], 'pro');
      for (let i = 0; i < 3; i++) {
        const res = await request(t.http).get('/throttled/write-export').set('X-API-Key', reader).expect(403);
        expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
      }
      await request(t.http).get('/throttled/write-export').expect(401);
      const writer = await t.key(['read', 'write'], 'pro');
      await request(t.http).get('/throttled/write-export').set('X-API-Key', writer).expect(200);
      await request(t.http).get('/throttled/write-export').set('X-API-Key', writer).expect(429);
    });

    it('limits a route exempt from the plan by its own window', async () => {
      const ip = newIp();
      const get = () => request(t.http).get('/unthrottled/limited').set('X-Forwarded-For', ip);
      const first = await get().expect(200);
      expect([limit(first), remaining(first)]).toEqual([1, 0]);
      const refused = await get().expect(429);
      expect(refused.body.message).toContain('requests without a valid API key from this address');
    });
  });

  describe('@SkipThrottle()', () => {
    it('exempts a route from the plan: headers on every response, never counted, never refused', async () => {
      const key = await t.key(['read']);
      const ip = newIp();
      const get = (path: string) => request(t.http).get(path).set('X-API-Key', key).set('X-Forwarded-For', ip);
      const before = remaining(await get('/throttled/plain').expect(200));
      for (let i = 0; i < 10; i++) {
        const res = await get(i % 2 ? '/throttled/free' : `/throttled/free/${i}`).expect(200);
        expect(limit(res)).toBe(5);
        expect(remaining(res)).toBe(before);
        expect(res.headers['ratelimit-policy']).toBe('"minute";q=5;w=60, "day";q=1000;w=86400');
      }
      // Spend the plan on a counted route; the exempt routes still answer, with the headers saying so.
      for (let i = 0; i < before; i++) await get('/throttled/plain').expect(200);
      const limited = await get('/throttled/plain').expect(429);
      expect(limited.body.code).toBe('RATE_LIMIT_EXCEEDED');
      const free = await get('/throttled/free/7').expect(200);
      expect(free.body).toEqual({ id: '7' });
      expect(remaining(free)).toBe(0);
      // Unknown routes are still refused before routing.
      await get('/throttled/no-such-route').expect(429);
    });

    it('on a controller exempts each of its routes, unless a route opts back in', async () => {
      const ip = newIp();
      const get = (path: string) => request(t.http).get(path).set('X-Forwarded-For', ip);
      for (let i = 0; i < 8; i++) {
        const res = await get('/unthrottled').expect(200);
        expect(remaining(res)).toBe(5);
      }
      const counted = [];
      for (let i = 0; i < 6; i++) counted.push((await get('/unthrottled/counted')).status);
      expect(counted).toEqual([200, 200, 200, 200, 200, 429]);
      await get('/unthrottled').expect(200);
    });

    it('HEAD follows GET; another method on the path is counted', async () => {
      const ip = newIp();
      for (let i = 0; i < 7; i++) await request(t.http).head('/unthrottled').set('X-Forwarded-For', ip).expect(200);
      const res = await request(t.http).post('/unthrottled').set('X-Forwarded-For', ip).expect(405);
      expect(remaining(res)).toBe(4);
    });
  });
});
