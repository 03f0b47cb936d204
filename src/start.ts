import { enableNodeCompileCache } from './platform/compile-cache.js';

// The started entry (`npm start`, `node dist/petstore.cjs`): Node's compile cache goes on
// first, so that the service, loaded after it, is compiled with the cache on. Nothing else
// belongs here: whatever this file imports is loaded before the cache exists. (A failed
// load rejects unhandled: Node prints the error and exits with 1.)
enableNodeCompileCache(process.env);
void import('./main.js');
