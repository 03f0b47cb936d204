// `npm start`'s entry (bundled as dist/petstore.mjs): runs the service's bundle,
// dist/petstore.cjs, with V8's code cache (see code-cache.ts). Its `import()` is
// this module's, so that packages resolve from here as they would from the bundle.
import { setFlagsFromString } from 'node:v8';
import { bundleBeside, runBundle } from './lifecycle/code-cache.js';
import { keepTickShape } from './lifecycle/tick-shape.js';

// Before anything is allocated: V8's allocation-site pretenuring, once it decides that a site's
// objects live long, allocates them in the old generation for good; a request's objects then
// pile up there, every scavenge visits them, and a process stays ~35 % slower per read from
// then on (docs/performance.md, "a process that turns slow").
setFlagsFromString('--no-allocation-site-pretenuring');
keepTickShape(); // before the bundle's load can run a full collection
runBundle(bundleBeside(import.meta.url), (specifier) => import(specifier));
