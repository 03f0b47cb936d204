// Bytes allocated per request, by package (or service file) and by function, from
// a profile written by allocation-sampler.mjs: node allocation-summary.mjs FILE REQUESTS [TOP]
import { readFileSync } from 'node:fs';
import { codePlace } from './lib/code-place.mjs';

const [file, requestsArg, topArg] = process.argv.slice(2);
if (!file || !(Number(requestsArg) > 0)) {
  process.stderr.write('usage: node allocation-summary.mjs FILE REQUESTS [TOP]\n');
  process.exit(2);
}
const requests = Number(requestsArg);
const top = Number(topArg ?? 25);
const { head } = JSON.parse(readFileSync(file, 'utf8'));

const byPlace = new Map();
const byFunction = new Map();
let total = 0;
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
const place = (url) => codePlace(url) || '(V8)';
for (const stack = [head]; stack.length;) {
  const node = stack.pop();
  const { functionName, url, lineNumber } = node.callFrame;
  total += node.selfSize;
  add(byPlace, place(url), node.selfSize);
  add(byFunction, `${functionName || '(anonymous)'} ${place(url)}:${lineNumber + 1}`, node.selfSize);
  stack.push(...node.children);
}
const show = (title, map) => {
  console.log(title);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${String(Math.round(bytes / requests)).padStart(8)}  ${key}`);
  }
};
console.log(`${Math.round(total / requests)} bytes per request (sampled every 16 KiB)`);
show('\nby package or service file', byPlace);
show('\nby function', byFunction);
