import { Controller, Get, Header, Module, Res } from '@nestjs/common';
import { Public } from '@petstore/auth';
import type { Response } from 'express';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { ExposeHeaders } from '../src/shared/http/expose-headers.decorator.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A module's view of the response, as Express documents it: the service's own
 * header fields (security headers, request id, rate limits, cache policy) are
 * visible to `getHeader`/`hasHeader`/`getHeaderNames` from the handler on, a
 * field the handler sets replaces the service's, and the headers a module
 * declares with `@ExposeHeaders` are readable by browsers under CORS without any
 * edit of the application's setup.
 */
@Public()
@ExposeHeaders('X-Example-Count')
@Controller('header-probe')
class HeaderProbeController {
  @Get('seen')
  seen(@Res({ passthrough: true }) res: Response): object {
    res.setHeader('X-Example-Count', '3');
    return {
      requestId: res.getHeader('X-Request-Id') ?? null,
      hasRateLimit: res.hasHeader('X-RateLimit-Limit'),
      names: res.getHeaderNames(),
    };
  }

  @Get('own-id')
  ownId(@Res({ passthrough: true }) res: Response): object {
    res.setHeader('X-Request-Id', 'mine');
    return {};
  }

  @Get('own-cache')
  @Header('Cache-Control', 'public, max-age=60')
  @ExposeHeaders('X-Cache-Probe')
  ownCache(): object {
    return {};
  }
}

@Module({ controllers: [HeaderProbeController] })
class HeaderProbeModule {}

const ORIGIN = 'https://app.example';

describe('response headers seen by a module (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      { REDIS_URL: '', CORS_ORIGINS: ORIGIN },
      { rootModule: AppModule.register({ modules: [HeaderProbeModule] }) },
    );
  });
  afterAll(() => t.close());

  it("lets the handler read the service's own fields, as sent", async () => {
    const res = await request(t.http).get('/header-probe/seen').set('X-Request-Id', 'probe-1').expect(200);
    expect(res.body.requestId).toBe('probe-1');
    expect(res.body.hasRateLimit).toBe(true);
    expect(res.body.names).toEqual(
      expect.arrayContaining(['x-request-id', 'cache-control', 'vary', 'x-content-type-options', 'x-ratelimit-limit']),
    );
    expect(res.headers['x-request-id']).toBe('probe-1');
  });

  it('sends a field the handler set itself once, its value replacing the default', async () => {
    const res = await request(t.http).get('/header-probe/own-id').expect(200);
    expect(res.headers['x-request-id']).toBe('mine');
    const cached = await request(t.http).get('/header-probe/own-cache').expect(200);
    expect(cached.headers['cache-control']).toBe('public, max-age=60');
  });

  it("exposes the module's declared headers to browsers beside the service's own", async () => {
    const res = await request(t.http).get('/header-probe/seen').set('Origin', ORIGIN).expect(200);
    const exposed = String(res.headers['access-control-expose-headers'])
      .split(',')
      .map((name) => name.trim());
    expect(exposed).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-Example-Count', 'X-Cache-Probe']),
    );
  });
});
