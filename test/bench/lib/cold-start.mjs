// Cold start: from spawning the service to its first 200 of GET /health/ready, on an
// embedded PostgreSQL with a fresh data directory (initdb, migrations, seed), on the
// same directory again (a second start), and on the machine's PostgreSQL with the
// schema already migrated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, stopProcess, waitForOk } from './processes.mjs';

const POLL_MS = 20;

async function timeToReady(name, script, env, logDir) {
  const server = await startProcess({ name, script, env, logDir });
  try {
    return await waitForOk(server, '/health/ready', { intervalMs: POLL_MS, timeoutMs: 120_000 });
  } finally {
    await stopProcess(server, 30_000);
  }
}

/** `runs` of each kind of start; every time in ms. */
export async function measureColdStarts({ script, env, databaseUrl, runs, logDir, log }) {
  const times = { embeddedFresh: [], embeddedSecond: [], machine: [] };
  for (let run = 1; run <= runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-bench-data-'));
    try {
      const embedded = { ...env, DATABASE_URL: undefined, DATA_DIR: dataDir };
      times.embeddedFresh.push(await timeToReady('cold-embedded', script, embedded, logDir));
      times.embeddedSecond.push(await timeToReady('cold-embedded', script, embedded, logDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    times.machine.push(await timeToReady('cold-machine', script, { ...env, DATABASE_URL: databaseUrl }, logDir));
    log(
      `  run ${run}: embedded fresh ${Math.round(times.embeddedFresh.at(-1))} ms, ` +
        `second ${Math.round(times.embeddedSecond.at(-1))} ms, machine PostgreSQL ${Math.round(times.machine.at(-1))} ms`,
    );
  }
  return times;
}
