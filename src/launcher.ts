// `npm start`'s entry (bundled as dist/petstore.mjs): runs the service's bundle,
// dist/petstore.cjs, with V8's code cache (see code-cache.ts). Its `import()` is
// this module's, so that packages resolve from here as they would from the bundle.
import { bundleBeside, runBundle } from './lifecycle/code-cache.js';
import { keepTickShape } from './lifecycle/tick-shape.js';

keepTickShape(); // before the bundle's load can run a full collection
runBundle(bundleBeside(import.meta.url), (specifier) => import(specifier));
