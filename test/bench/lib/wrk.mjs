// wrk as the load generator, when it is installed: a C program on its own thread,
// it leaves far more of a 2-core machine to the server under test than autocannon,
// which runs in this process's JavaScript. The request (method, headers, body) and
// the figures read back (requests, duration, errors, p50/p99) go through a small
// Lua script, so nothing depends on wrk's human-readable summary.
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when `wrk` runs here (BENCH_LOADER=autocannon turns it off). */
export function wrkAvailable(env = process.env) {
  if (env.BENCH_LOADER === 'autocannon') return false;
  // `wrk -v` prints its version and exits with status 1: only a failure to start it counts.
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

/** A Lua string literal: quotes and backslashes escaped, control characters (a body's newlines) as 3-digit escapes. */
function lua(text) {
  let literal = '"';
  for (const char of String(text)) {
    const code = char.charCodeAt(0);
    if (char === '\\' || char === '"') literal += `\\${char}`;
    else literal += code < 32 ? `\\${String(code).padStart(3, '0')}` : char;
  }
  return `${literal}"`;
}

function script({ method, headers, body, paths, uniqueHeader, uniqueAddress }) {
  const lines = [`wrk.method = ${lua(method)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  if (body !== undefined) lines.push(`wrk.body = ${lua(body)}`);
  if (paths) lines.push(`local paths = { ${paths.map(lua).join(', ')} }`);
  if (uniqueHeader) lines.push(`local prefix = ${lua(randomUUID())}`, 'local counter = 0');
  if (uniqueAddress) lines.push(`local address = ${Math.trunc(uniqueAddress.start ?? 0)}`);
  if (paths || uniqueHeader || uniqueAddress) {
    // A random one of the paths, and a value of the header never sent before, each time.
    lines.push(
      'request = function()',
      ...(uniqueHeader
        ? ['  counter = counter + 1', `  wrk.headers[${lua(uniqueHeader)}] = prefix .. "-" .. counter`]
        : []),
      ...(uniqueAddress
        ? [
            // 10.0.0.0/8 from a counter: 16,777,216 addresses before one repeats.
            '  local a = address % 16777216',
            '  address = address + 1',
            `  wrk.headers[${lua(uniqueAddress.header)}] = string.format("10.%d.%d.%d", math.floor(a / 65536), math.floor(a / 256) % 256, a % 256)`,
          ]
        : []),
      `  return wrk.format(nil, ${paths ? 'paths[math.random(#paths)]' : 'nil'})`,
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    "  io.write(string.format('WRK_RESULT %d %d %d %d %d %d %d %d %d\\n', summary.requests, summary.duration,",
    '    e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * One wrk run against `url`: the same figures as autocannon's (req/s, p50 and p99 in
 * ms, requests, responses with a status of 400 or more, socket errors and timeouts).
 * With `paths`, each request asks a random one of them instead of the URL's path; with
 * `uniqueHeader`, each request gives that header a value no request sent before; with
 * `uniqueAddress: {header, start}`, each request gives that header an IPv4 address of
 * 10.0.0.0/8, the `start`-th and on (a flood of distinct clients behind a proxy).
 */
export async function wrkOnce(
  url,
  { method, headers, body, seconds, connections, paths, uniqueHeader, uniqueAddress },
) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-wrk-'));
  const file = join(dir, 'request.lua');
  writeFileSync(file, script({ method, headers, body, paths, uniqueHeader, uniqueAddress }));
  try {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, url];
    const stdout = await new Promise((done, fail) =>
      execFile('wrk', args, { maxBuffer: 1 << 20 }, (error, out, err) =>
        error ? fail(new Error(`wrk failed: ${error.message}\n${err}`)) : done(out),
      ),
    );
    const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
    if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
    const [requests, durationUs, connect, read, write, status, timeout, p50Us, p99Us] = line
      .slice('WRK_RESULT '.length)
      .split(' ')
      .map(Number);
    return {
      rps: requests / (durationUs / 1e6),
      p50: p50Us / 1000,
      p99: p99Us / 1000,
      requests,
      non2xx: status,
      errors: connect + read + write + timeout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
