import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLAN_TABLE } from './plan.js';
import { applyPlanOverrides, describePlanTable, loadPlanTable, parsePlanTable, PlanConfigError } from './plans-file.js';

const VALID = `
plans:
  free: { perMinute: 10, perDay: 100 }
  pro: { perMinute: 20, perDay: 200 }
  business: { perMinute: 30, perDay: 300 }
  enterprise: per-key
`;

function error(text: string): string {
  try {
    parsePlanTable(text, 'plans.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(PlanConfigError);
    return (e as Error).message;
  }
  throw new Error('expected the table to be refused');
}

describe('plans file', () => {
  it('ships the seed table as config/plans.yaml', () => {
    expect(parsePlanTable(readFileSync('config/plans.yaml', 'utf8'), 'config/plans.yaml')).toEqual(DEFAULT_PLAN_TABLE);
  });

  it('parses a valid table; enterprise is always per key', () => {
    expect(parsePlanTable(VALID, 'plans.yaml')).toEqual({
      free: { perMinute: 10, perDay: 100 },
      pro: { perMinute: 20, perDay: 200 },
      business: { perMinute: 30, perDay: 300 },
      enterprise: null,
    });
    expect(parsePlanTable(VALID.replace('enterprise: per-key', ''), 'p').enterprise).toBeNull();
  });

  it.each([
    [
      'a value that is not a number',
      VALID.replace('perMinute: 20', 'perMinute: lots'),
      'plans.yaml: plans.pro.perMinute must be an integer',
    ],
    ['a zero quota', VALID.replace('perDay: 300', 'perDay: 0'), 'plans.business.perDay must be an integer from 1'],
    ['a fraction', VALID.replace('perMinute: 10', 'perMinute: 1.5'), 'plans.free.perMinute'],
    ['a missing plan', VALID.replace(/ {2}pro:.*\n/, ''), 'plans.yaml: plans.pro is missing'],
    ['an unknown plan', `${VALID}  gold: { perMinute: 1, perDay: 1 }\n`, 'plans.gold is not a known plan'],
    [
      'an unknown field',
      VALID.replace('perDay: 100', 'perDay: 100, perHour: 5'),
      'plans.free.perHour is not a known field',
    ],
    [
      'a day quota below the minute quota',
      VALID.replace('perDay: 200', 'perDay: 2'),
      'plans.pro.perDay (2) must not be below',
    ],
    [
      'enterprise quotas in the table',
      VALID.replace('enterprise: per-key', 'enterprise: { perMinute: 1, perDay: 1 }'),
      'plans.enterprise must be',
    ],
    ['no plans mapping', 'free: 1', "expected a top-level 'plans' mapping"],
    ['broken YAML', 'plans: [', 'plans.yaml: not valid YAML'],
    ['a stray top-level entry', `${VALID}extra: 1\n`, "'extra' is not a known top-level entry"],
  ])('refuses %s, naming the entry', (_case, text, message) => {
    expect(error(text)).toContain(message);
  });

  it('applies environment overrides on top of the file', () => {
    const table = applyPlanOverrides(parsePlanTable(VALID, 'p'), { free: { perMinute: 5 }, business: { perDay: 900 } });
    expect(table.free).toEqual({ perMinute: 5, perDay: 100 });
    expect(table.business).toEqual({ perMinute: 30, perDay: 900 });
    expect(table.pro).toEqual({ perMinute: 20, perDay: 200 });
  });

  it('refuses overrides that make a day quota smaller than the minute quota, naming the variables', () => {
    expect(() => applyPlanOverrides(DEFAULT_PLAN_TABLE, { free: { perMinute: 5_000 } })).toThrow(
      /PLAN_FREE_PER_MINUTE/,
    );
  });

  describe('loadPlanTable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));

    it('reads the file and applies the overrides', () => {
      const file = join(dir, 'plans.yaml');
      writeFileSync(file, VALID);
      expect(loadPlanTable({ file, required: true, overrides: { pro: { perMinute: 7 } } }).pro).toEqual({
        perMinute: 7,
        perDay: 200,
      });
    });

    it('falls back to the seed table when the default file is absent', () => {
      expect(loadPlanTable({ file: join(dir, 'absent.yaml'), required: false, overrides: {} })).toEqual(
        DEFAULT_PLAN_TABLE,
      );
    });

    it('refuses an absent file named by PLANS_FILE', () => {
      expect(() => loadPlanTable({ file: join(dir, 'absent.yaml'), required: true, overrides: {} })).toThrow(
        /absent\.yaml: no such file \(set by PLANS_FILE\)/,
      );
    });
  });

  it('describes a table in one line for the log', () => {
    expect(describePlanTable(DEFAULT_PLAN_TABLE)).toBe(
      'free 60/min 1000/day, pro 300/min 10000/day, business 1000/min 100000/day, enterprise per key',
    );
  });
});
