/**
 * Layer rules, checked by `npm run lint` (dependency-cruiser). Paths are regular
 * expressions on the importing file (`from`) and the file the import resolves to
 * (`to`); `$1` in `to` is the group captured in `from`. Type-only imports count:
 * a layer that names a type of another depends on it.
 *
 * A module is a folder with the four rooms (domain/ application/ infrastructure/
 * http/): every folder under src/ but the service's own plumbing listed in CORE
 * (so a team's new folder is held to the rules as it appears), and the extension
 * modules that the tests add under test/extension/. docs/extending.md explains
 * the rules.
 */
const CORE =
  '(shared|database|config|health|logging|metrics|lifecycle|openapi|cli|demo|rate-limits|platform|console|tracing)';
/** A resource module's folder, e.g. src/pets. */
const RESOURCE = `src/(?!${CORE}/)[^/]+`;
const MODULE = `(${RESOURCE}|test/extension/[^/]+)`;
const FRAMEWORK =
  '(^|/)node_modules/(@nestjs/|typeorm/|express/|@types/express/|class-validator/|class-transformer/|pg/|@types/pg/)';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'domain-without-framework',
      comment:
        'domain/ is plain TypeScript: rules, ports, errors, events. Decorators, ORM, HTTP and validation belong in the ' +
        'outer rooms (infrastructure/, http/).',
      severity: 'error',
      from: { path: `^${MODULE}/domain/` },
      to: { path: FRAMEWORK },
    },
    {
      name: 'domain-inward',
      comment:
        'domain/ is the inner room: it names no use case (application/), adapter (infrastructure/) or controller (http/).',
      severity: 'error',
      from: { path: `^${MODULE}/domain/` },
      to: { path: `^${MODULE}/(application|infrastructure|http)/` },
    },
    {
      name: 'core-knows-no-resource',
      comment:
        'shared/, database/ and the libraries serve every module and know none: a module plugs into them ' +
        '(ports, tokens, the unit of work, domain events), never the other way round.',
      severity: 'error',
      from: { path: '^(src/(shared|database)|libs)/' },
      to: { path: `^${RESOURCE}/` },
    },
    {
      name: 'through-public-entry',
      comment:
        "Another module is reached only through its public entry, src/<module>/index.ts: what it exports is the module's " +
        'contract; everything else may change without notice.',
      severity: 'error',
      from: { path: '^(src/[^/]+|test/extension/[^/]+)' },
      to: { path: `^${RESOURCE}/`, pathNot: [`^$1/`, `^${RESOURCE}/index\\.ts$`] },
    },
    {
      name: 'database-through-its-boundary',
      comment:
        'A module reaches the database machinery only through src/database/index.ts (managerOf, the unit of work, ' +
        'toInt8, the pg error helpers): src/database/README.md says what each export is for.',
      severity: 'error',
      from: { path: `^${MODULE}/` },
      to: { path: '^src/database/', pathNot: '^src/database/index\\.ts$' },
    },
    {
      name: 'platform-behind-the-core',
      comment:
        'src/platform/ holds what exists only for speed (src/platform/README.md lists each mechanism and what it ' +
        "buys): the service's own plumbing wires it in, and no module, library or test extension depends on it, so " +
        'that a module written without it is correct and only slower.',
      severity: 'error',
      from: { path: `^(${MODULE}/|libs/|test/extension/)` },
      to: { path: '^src/platform/' },
    },
    {
      name: 'not-through-own-entry',
      comment:
        "A module's own files import each other directly, never their own index.ts: that would load the whole module " +
        '(and the modules it imports) while it is still loading, an import cycle.',
      severity: 'error',
      from: { path: `^${MODULE}/`, pathNot: '/index\\.ts$' },
      to: { path: '^$1/index\\.ts$' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'libs/client is published on its own (@petstore/client): it imports its own files and openapi-fetch only, ' +
        'never the server (its types come from openapi.yaml, generated into libs/client/src/schema.ts).',
      severity: 'error',
      from: { path: '^libs/client/' },
      to: { pathNot: ['^libs/client/', '(^|/)node_modules/openapi-fetch/'] },
    },
    {
      name: 'no-runtime-cycle',
      comment:
        'No import cycle that survives compilation: in a cycle, the file that starts it sees the others half-loaded, ' +
        'and a decorator or `@Module({ imports })` that reads one of their exports at load time throws. Two modules ' +
        'that need each other: one declares a port, the other binds it (see PetInventoryLines).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|data)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
