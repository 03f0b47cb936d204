import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { eventually } from './support/eventually.js';
import { startUntilReady } from './support/spawn-service.mjs';

/**
 * The bundle `npm start` runs (`dist/petstore.cjs` through its launcher
 * `dist/petstore.mjs`, built by `npm test`'s pretest) carries every package it
 * imports: a dependency that loads another through a `require` of its own, which
 * the bundler does not follow, would load a second copy from node_modules at every
 * start (it did: typeorm, class-validator with validator and libphonenumber-js,
 * class-transformer, pino-pretty: ~700 files, a fifth of the start-up time, 10 MB
 * of memory, and a class-transformer metadata storage apart from the bundled one).
 * Only the packages left outside the bundle on purpose (scripts/bundle.mjs) may
 * load, and on this start (a PostgreSQL server, no terminal) only swagger-ui-dist,
 * whose files the API documentation serves.
 */
const ENTRY = resolve('dist/petstore.mjs');
const REPORTER = resolve('test/support/report-loaded-packages.cjs');
const OUTSIDE_THE_BUNDLE = ['swagger-ui-dist'];

function packageOf(file: string): string {
  const [first, second] = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

describe('the bundle (dist/petstore.mjs)', () => {
  it('loads no package from node_modules but those left outside it, from start to shutdown', async () => {
    const service = await startUntilReady({
      entry: ENTRY,
      env: {
        NODE_OPTIONS: `--require ${REPORTER}`, // not Jest's --experimental-vm-modules
        BOOTSTRAP_ADMIN_KEY: `psk_bundle_${randomBytes(16).toString('hex')}`,
        LOG_LEVEL: 'warn',
      },
    });
    try {
      expect((await fetch(`${service.base}/docs`)).status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const report = /LOADED_FROM_NODE_MODULES (.*)/.exec(service.output());
    expect(report).not.toBeNull();
    const files = JSON.parse((report as RegExpExecArray)[1]) as string[];
    expect([...new Set(files.map(packageOf))].filter((name) => !OUTSIDE_THE_BUNDLE.includes(name))).toEqual([]);
  });
});

describe('the built service, once started', () => {
  it('leaves process.nextTick as cheap as before it loaded (no heap profiler left at work)', async () => {
    const service = await startUntilReady({
      entry: ENTRY,
      env: {
        NODE_OPTIONS: `--require ${resolve('test/support/report-next-tick-cost.cjs')}`,
        BOOTSTRAP_ADMIN_KEY: `psk_bundle_${randomBytes(16).toString('hex')}`,
        LOG_LEVEL: 'warn',
      },
    });
    try {
      expect((await fetch(`${service.base}/health/live`)).status).toBe(200);
      await eventually(() => service.output().includes('NEXT_TICK_COST'), 10_000);
    } finally {
      service.child.kill('SIGTERM');
    }
    const { before, after } = JSON.parse(/NEXT_TICK_COST (.*)/.exec(service.output())?.[1] ?? '{}') as {
      before: number;
      after: number;
    };
    // A ratio within one process, not a time. With the inspector's collection: ~8x.
    expect(after).toBeLessThan(before * 3);
  });
});
