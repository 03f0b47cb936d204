import { enableNodeCompileCache } from './platform/compile-cache.js';
import { tracingRequested } from './tracing/tracing-switch.js';

// The started entry (`npm start`, `node dist/petstore.cjs`): Node's compile cache goes on
// first, so that the service, loaded after it, is compiled with the cache on. Then, only
// when tracing is configured, OpenTelemetry's SDK (a bundle of its own): its
// instrumentations must be in place before the service requires what they hook. Nothing
// else belongs here: whatever this file imports is loaded before the cache exists. (A
// failed load rejects unhandled: Node prints the error and exits with 1.)
enableNodeCompileCache();
const tracing = tracingRequested(process.env)
  ? import('./tracing/tracing-sdk.js').then(({ startTracing }) => void startTracing())
  : Promise.resolve();
void tracing.then(() => import('./main.js'));
