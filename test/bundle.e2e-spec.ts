import { bundleReport } from './support/bundle-report.js';

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
const OUTSIDE_THE_BUNDLE = ['swagger-ui-dist'];

function packageOf(file: string): string {
  const [first, second] = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

describe('the bundle (dist/petstore.mjs)', () => {
  it('loads no package from node_modules but those left outside it, from start to shutdown', async () => {
    const { report: files, exit } = await bundleReport<string[]>(
      'report-loaded-packages.cjs',
      'LOADED_FROM_NODE_MODULES',
      { path: '/docs', when: 'exiting' },
    );
    expect(exit).toEqual({ code: 0, signal: null });
    expect([...new Set(files.map(packageOf))].filter((name) => !OUTSIDE_THE_BUNDLE.includes(name))).toEqual([]);
  });
});

describe('the built service, once started', () => {
  it('opens no inspector session (its heap collection left the heap profiler at work: nextTick ~8x dearer)', async () => {
    const { report: uses } = await bundleReport<string[]>('report-inspector-use.cjs', 'INSPECTOR_USE', {
      path: '/health/live',
      when: 'running',
    });
    expect(uses).toEqual([]);
  });
});
