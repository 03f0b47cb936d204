// The servers under test as child processes: started with their output going to a
// log file (never the terminal, and not through a pipe this process must drain
// while it generates load), waited for, and stopped.
/* global fetch */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, waitUntilReady } from '../../support/spawn-service.mjs';
import { startFlags } from '../../support/start-flags.mjs';

/** Servers started and not yet exited. */
const running = new Set();

/** The last `bytes` of a file, for error messages. */
function tail(file, bytes = 4_000) {
  try {
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    const buffer = Buffer.alloc(Math.min(bytes, size));
    readSync(fd, buffer, 0, buffer.length, Math.max(0, size - buffer.length));
    closeSync(fd);
    return buffer.toString('utf8');
  } catch {
    return '(no output)';
  }
}

/**
 * Runs `node <script>` (a build's entry with its start script's flags, `startFlags`) with PORT and `env` over this environment (a variable set to
 * undefined is removed), its stdout and stderr appended to `<logDir>/<name>.log`; under `under`
 * (a command and its arguments, such as valgrind's) when given.
 */
export async function startProcess({ name, script, env, logDir, port, under = [] }) {
  port ??= await freePort();
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const merged = { ...process.env, PORT: String(port), ...env };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const startedAt = performance.now();
  const [command, ...args] = [...under, process.execPath, ...startFlags(script), script];
  const child = spawn(command, args, { env: merged, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const server = {
    name,
    /** What started it: `restartProcess` starts the same build with the same environment again. */
    spec: { name, script, env, logDir, port, under },
    port,
    pid: child.pid,
    base: `http://127.0.0.1:${port}`,
    child,
    exited,
    startedAt,
    logFile,
    output: () => tail(logFile),
  };
  running.add(server);
  exited.then(() => running.delete(server));
  return server;
}

/** Waits until GET `path` answers 200 (polling every `intervalMs`); resolves to ms since the start. */
export async function waitForOk(server, path, { headers = {}, intervalMs = 100, timeoutMs = 120_000 } = {}) {
  const url = `${server.base}${path}`;
  await waitUntilReady(server, async () => (await fetch(url, { headers })).status === 200, {
    intervalMs,
    attempts: Math.ceil(timeoutMs / intervalMs),
  });
  return performance.now() - server.startedAt;
}

/**
 * Stops `server` and starts the same build, with the same environment, on the same port; resolves
 * once it answers `readyPath`. Two processes of one build have differed by up to ~15% in CPU per
 * request on a shared machine, so a small ratio between two builds is better taken over several
 * processes of each (`BENCH_FRESH_PROCESSES`).
 */
export async function restartProcess(server, readyPath) {
  await stopProcess(server);
  const fresh = await startProcess(server.spec);
  await waitForOk(fresh, readyPath);
  return fresh;
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopProcess(server, graceMs = 15_000) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const stopped = await Promise.race([server.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!stopped) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** Stops every process still running (on the way out, also after a failure). */
export async function stopAll() {
  await Promise.all([...running].map((server) => stopProcess(server)));
}
