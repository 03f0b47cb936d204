// Where a server's main thread spends its time, per request, from Linux perf's
// call stacks rather than the inspector's profiler (which makes some of Node's own
// functions look dearer in the service than they are: process.nextTick ~14 times):
//   node test/bench/perf-attribution.mjs STACKS REQUESTS [--by package|function] [--top N]
// STACKS is `perf script -F period,ip,sym` of a `perf record -g` of the server run with
// `node --perf-basic-prof-only-functions` (JIT frames then carry names and positions).
// Each sample goes to the innermost frame that says where it is: a JavaScript function
// (its package, Node file or service file), a garbage collector phase, a system call, or
// llhttp; V8's builtins and runtime are charged to the JavaScript that called them. A
// bundle built with BUNDLE_READABLE=1 keeps each module's path as a comment, which is
// how a frame of the bundle is traced to its package. See docs/performance.md.
import { readFileSync } from 'node:fs';
import { codePlace } from './lib/code-place.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args.splice(at, 2)[1];
};
const by = option('--by', 'package');
const top = Number(option('--top', '40'));
const [file, requestsArg] = args;
if (!file || !(Number(requestsArg) > 0) || !['package', 'function'].includes(by)) {
  process.stderr.write('usage: node perf-attribution.mjs STACKS REQUESTS [--by package|function] [--top N]\n');
  process.exit(2);
}
const requests = Number(requestsArg);

/** The module paths a readable bundle names in `// path` comments, by line (1-based), sorted. */
const bundleModules = new Map();
function modulesOf(bundle) {
  if (!bundleModules.has(bundle)) {
    const modules = [];
    readFileSync(bundle, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const named = /^\/\/ (\S+\.(?:c|m)?js(?:on)?)$/.exec(line);
        if (named) modules.push([index + 1, named[1]]);
      });
    if (modules.length === 0) process.stderr.write(`${bundle} names no modules: build it with BUNDLE_READABLE=1\n`);
    bundleModules.set(bundle, modules);
  }
  return bundleModules.get(bundle);
}
function moduleAt(bundle, line) {
  const modules = modulesOf(bundle);
  let low = 0;
  let high = modules.length - 1;
  let found = '(bundle)';
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (modules[middle][0] <= line) {
      found = modules[middle][1];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The system call a kernel frame just above the entry point serves. */
function systemCall(callee) {
  if (callee === '' || callee.startsWith('exit_to_user_mode')) return '(kernel, around a system call)';
  return `(system call ${callee.replace(/^(__x64_sys_|ksys_|do_)/, '')})`;
}

/** Where a frame is, or null for a frame that says nothing by itself (a builtin, the runtime, libc). */
function label(symbol) {
  // The name may hold spaces (`get empty`, a getter); the file is the last word.
  const js = /^JS:[*~^+]?(.*) (\S+):(\d+):\d+$/.exec(symbol);
  if (js) {
    const [, name, path, line] = js;
    const where = path.endsWith('.cjs') ? codePlace(moduleAt(path, Number(line))) : codePlace(path);
    return { where, name: name || '(anonymous)' };
  }
  if (/Scavenge|MarkCompact|MinorMC|GCTracer|Heap::Collect|ConcurrentMarking|Sweeper|Evacuat/.test(symbol)) {
    return { where: '(garbage collection)', name: symbol };
  }
  if (symbol.startsWith('llhttp')) return { where: '(llhttp)', name: symbol };
  return null;
}

const byKey = new Map();
let totalNs = 0;
for (const sample of readFileSync(file, 'utf8').split(/\n\s*\n/)) {
  const lines = sample.split('\n').filter((line) => line.trim());
  if (lines.length === 0) continue;
  const periodNs = Number(lines[0].trim());
  if (!(periodNs > 0)) continue;
  totalNs += periodNs;
  let key = '(unattributed)';
  let callee = '';
  for (const frame of lines.slice(1)) {
    const symbol = frame.trim().replace(/^[0-9a-f]+ /, '');
    // The kernel's frames say which system call they serve just above its entry point.
    const found = symbol === 'do_syscall_64' ? { where: systemCall(callee), name: callee } : label(symbol);
    if (found) {
      key = by === 'package' ? found.where : `${found.where} ${found.name}`;
      break;
    }
    callee = symbol;
  }
  byKey.set(key, (byKey.get(key) ?? 0) + periodNs);
}

const micros = (ns) => (ns / 1000 / requests).toFixed(2).padStart(8);
console.log(`${micros(totalNs)} µs per request on the recorded thread (${requests} requests)`);
for (const [key, ns] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${micros(ns)}  ${key}`);
