import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The bundle `npm start` runs (`dist/petstore.mjs`, built by `npm test`'s pretest)
 * carries every package it imports: a dependency that loads another through a
 * `require` of its own, which the bundler does not follow, would load a second
 * copy from node_modules at every start (it did: typeorm, class-validator with
 * validator and libphonenumber-js, class-transformer, pino-pretty: ~700 files, a
 * fifth of the start-up time, 10 MB of memory, and a class-transformer metadata
 * storage apart from the bundled one).
 *
 * Modules are all evaluated before the start-up reads its configuration, so a
 * start with an invalid PORT loads every package a real start loads, then exits.
 */
const ENTRY = resolve('dist/petstore.mjs');
const REPORTER = resolve('test/support/report-loaded-packages.cjs');

describe('the bundle (dist/petstore.mjs)', () => {
  it('loads no package from node_modules as it starts', () => {
    const run = spawnSync(process.execPath, ['--require', REPORTER, ENTRY], {
      env: { ...process.env, PORT: 'not-a-port', NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status).toBe(1);
    expect(output).toMatch(/Invalid configuration: .*PORT/);
    const report = /LOADED_FROM_NODE_MODULES (.*)/.exec(output);
    expect(report).not.toBeNull();
    expect(JSON.parse((report as RegExpExecArray)[1])).toEqual([]);
  });
});
