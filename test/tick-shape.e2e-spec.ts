import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Probe {
  /** Whether the kept object has the hidden class of a nextTick entry made after the collection (null: none kept). */
  readonly sameMap: boolean | null;
  /** nextTick's caches for the literal's keys that V8 reports as megamorphic. */
  readonly megamorphicKeys: number;
}

/** Runs test/support/tick-shape-probe.mjs against the built module. */
async function probe(mode: 'keep' | 'none'): Promise<Probe> {
  const { stdout } = await run(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', 'test/support/tick-shape-probe.mjs', mode],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = /^RESULT (.*)$/m.exec(stdout);
  if (!result) throw new Error(`the probe printed no result:\n${stdout.slice(-2_000)}`);
  const megamorphicKeys = stdout.match(/DefineKeyedOwnPropertyInLiteral MEGAMORPHIC/g)?.length ?? 0;
  return { ...(JSON.parse(result[1]) as { sameMap: boolean | null }), megamorphicKeys };
}

/**
 * `keepTickShape` (src/lifecycle/tick-shape.ts): without it, a full collection at
 * start-up loses the hidden classes of process.nextTick's entries, and nextTick's
 * caches for its literal's keys turn megamorphic for good (every tick then defines
 * its keys through V8's runtime); with it they stay as they were. Built code, in a
 * process of its own (see the probe).
 */
describe('the nextTick entries keep their hidden class (e2e)', () => {
  it('without the kept shape, a start-up collection turns nextTick megamorphic (what the fix is for)', async () => {
    const control = await probe('none');
    expect(control.sameMap).toBeNull();
    expect(control.megamorphicKeys).toBeGreaterThan(0);
  });

  it('with it, the entries keep the kept hidden class and nextTick stays monomorphic', async () => {
    expect(await probe('keep')).toEqual({ sameMap: true, megamorphicKeys: 0 });
  });
});
