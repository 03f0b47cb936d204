// Where a server allocates, per request: loaded into the server with
//   node --import ./test/bench/allocation-sampler.mjs dist/src/main.js
// the first SIGUSR2 starts V8's sampling heap profiler (every allocation counted,
// also those a scavenge or a mark-compact has since collected: garbage is what
// the GC pays for), the second writes the profile to ALLOCATION_PROFILE (default
// ./allocation.heapprofile). Between the two, send a known number of requests;
// `node test/bench/allocation-summary.mjs FILE REQUESTS` then gives bytes per
// request by package and by function. With ALLOCATION_PROMOTED=1 only what
// survived the young generation is counted (what makes the old generation grow).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
const post = (method, params = {}) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

let sampling = false;
process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.ALLOCATION_PROMOTED !== '1',
    });
    process.stderr.write('allocation sampling started\n');
    return;
  }
  sampling = false;
  const { profile } = await post('HeapProfiler.stopSampling');
  const file = process.env.ALLOCATION_PROFILE ?? 'allocation.heapprofile';
  writeFileSync(file, JSON.stringify(profile));
  process.stderr.write(`allocation profile written to ${file}\n`);
});
