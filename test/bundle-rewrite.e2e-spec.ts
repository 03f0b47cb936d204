import { runInNewContext } from 'node:vm';
import { rewriteForLauncher } from '../scripts/launcher-rewrite.mjs';
import { bundleReport } from './support/bundle-report.js';
import { hasFastProperties } from './support/v8-natives.js';

/**
 * esbuild's `keepNames` gives every class a `static { __name(this, "N"); }` block;
 * redefining a class's `name` turns it into a dictionary-mode object, and V8's
 * optimizing compiler then aborts every function that constructs it, again and again
 * (the app's request and response classes, built by Node's HTTP parser on every
 * request; pg's `Query`). The bundle's rewrite drops the block where the class is
 * named "N" anyway and names a renamed class expression instead (docs/performance.md).
 */

/** esbuild's helper, as the bundle defines it. */
const HELPER = 'var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });';
/** Something of each kind the rewrite insists on finding in a bundle. */
const REQUIRED =
  'const later = () => import("node:os"); const named = __name(() => 1, "named");' +
  ' class Plain { static { __name(this, "Plain"); } }';

/** Runs `code` (with the helper) and returns what it leaves in `result`. */
function run<T>(code: string): T {
  const context: { result?: T; __import: () => Promise<unknown> } = { __import: () => Promise.resolve({}) };
  runInNewContext(`${HELPER}\n${code}`, context);
  return context.result as T;
}

const rewrite = (classes: string) => rewriteForLauncher(`${REQUIRED}\n${classes}`);

describe("the bundle's rewrite of class names", () => {
  it('drops the naming block of a class named so already, which then keeps fast properties', () => {
    const code = 'class Base {} class Request extends Base { static { __name(this, "Request"); } } result = Request;';
    const before = run<{ name: string }>(`${REQUIRED}\n${code}`);
    const after = run<{ name: string }>(rewrite(code));
    expect({ name: before.name, fast: hasFastProperties(before) }).toEqual({ name: 'Request', fast: false });
    expect({ name: after.name, fast: hasFastProperties(after) }).toEqual({ name: 'Request', fast: true });
    expect(rewrite(code)).not.toContain('__name(this');
  });

  it('names a class expression the bundler renamed after its original name instead', () => {
    const code = 'var Query3 = class { static { __name(this, "Query"); } run() { return 1; } }; result = Query3;';
    const after = run<{ name: string }>(rewrite(code));
    expect({ name: after.name, fast: hasFastProperties(after) }).toEqual({ name: 'Query', fast: true });
    expect(rewrite(code)).toContain('class Query');
  });

  it('keeps the block where naming the class would hide an outer binding of that name', () => {
    const code =
      'var Query = 7; var Query3 = class { static { __name(this, "Query"); } outer() { return Query; } };' +
      ' result = [Query3.name, new Query3().outer()];';
    expect(rewrite(code)).toContain('__name(this, "Query")');
    expect(run(rewrite(code))).toEqual(['Query', 7]);
  });

  it('keeps the block of a class with a static `name` member, which the block overrides', () => {
    const code = 'class Named { static { __name(this, "Named"); } static name() { return "x"; } } result = Named.name;';
    expect(rewrite(code)).toContain('__name(this, "Named")');
    expect(run(rewrite(code))).toBe('Named');
  });

  it('keeps the block of a class whose name differs and cannot be given (a declaration)', () => {
    const code = 'class Pool2 { static { __name(this, "Pool"); } } result = Pool2.name;';
    expect(run(rewrite(code))).toBe('Pool');
  });
});

describe('the built bundle (dist/petstore.mjs)', () => {
  it('builds requests and responses with classes that keep fast properties', async () => {
    const { report } = await bundleReport('report-message-classes.cjs', 'MESSAGE_CLASSES', {
      path: '/health/live',
      when: 'running',
    });
    expect(report).toEqual({
      request: { name: 'ExpressRequest', fast: true },
      response: { name: 'ExpressResponse', fast: true },
    });
  });
});
