import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DEFAULT_PLAN_TABLE, PLAN_NAMES, type PlanLimits, type PlanName, type PlanTable } from './plan.js';

/** Plans whose quotas come from the table (enterprise quotas are set per key). */
export const TABLE_PLANS = ['free', 'pro', 'business'] as const satisfies readonly PlanName[];
export type TablePlanName = (typeof TABLE_PLANS)[number];

/** Single quotas set by environment variables (`PLAN_FREE_PER_MINUTE` …); they win over the file. */
export type PlanOverrides = Readonly<Partial<Record<TablePlanName, Partial<PlanLimits>>>>;

/** Upper bound of a quota: counters are 32-bit friendly and an int32 in the API. */
export const MAX_QUOTA = 2_147_483_647;

/** The plan table could not be used; the message names the file and the bad entry. */
export class PlanConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanConfigError';
  }
}

const PER_KEY = ['per-key', 'per key'];
const LIMIT_FIELDS = ['perMinute', 'perDay'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quota(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_QUOTA) {
    throw new PlanConfigError(`${where} must be an integer from 1 to ${MAX_QUOTA}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function limitsOf(value: unknown, where: string): PlanLimits {
  if (!isRecord(value)) throw new PlanConfigError(`${where} must be a mapping with perMinute and perDay`);
  for (const field of Object.keys(value)) {
    if (!(LIMIT_FIELDS as readonly string[]).includes(field)) {
      throw new PlanConfigError(`${where}.${field} is not a known field (expected perMinute and perDay)`);
    }
  }
  const perMinute = quota(value.perMinute, `${where}.perMinute`);
  const perDay = quota(value.perDay, `${where}.perDay`);
  if (perDay < perMinute) {
    throw new PlanConfigError(`${where}.perDay (${perDay}) must not be below ${where}.perMinute (${perMinute})`);
  }
  return { perMinute, perDay };
}

/**
 * Parses and validates a plan table document (YAML or JSON):
 * `plans: { free: {perMinute, perDay}, pro: …, business: …, enterprise: per-key }`.
 * Every table plan must be present; unknown plans or fields are refused, so a typo
 * cannot silently leave a plan on a default.
 */
export function parsePlanTable(text: string, source: string): PlanTable {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new PlanConfigError(`${source}: not valid YAML (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(document) || !isRecord(document.plans)) {
    throw new PlanConfigError(`${source}: expected a top-level 'plans' mapping`);
  }
  for (const key of Object.keys(document)) {
    if (key !== 'plans') throw new PlanConfigError(`${source}: '${key}' is not a known top-level entry`);
  }
  const plans = document.plans;
  for (const name of Object.keys(plans)) {
    if (!(PLAN_NAMES as readonly string[]).includes(name)) {
      throw new PlanConfigError(`${source}: plans.${name} is not a known plan (plans are ${PLAN_NAMES.join(', ')})`);
    }
  }
  const table: Record<PlanName, PlanLimits | null> = { ...DEFAULT_PLAN_TABLE };
  for (const name of TABLE_PLANS) {
    if (!(name in plans)) throw new PlanConfigError(`${source}: plans.${name} is missing`);
    table[name] = limitsOf(plans[name], `${source}: plans.${name}`);
  }
  const enterprise = plans.enterprise;
  if (
    enterprise !== undefined &&
    enterprise !== null &&
    (typeof enterprise !== 'string' || !PER_KEY.includes(enterprise))
  ) {
    throw new PlanConfigError(`${source}: plans.enterprise must be 'per-key' (enterprise limits are set on each key)`);
  }
  table.enterprise = null;
  return table;
}

/** Applies environment overrides, checking that each plan stays consistent. */
export function applyPlanOverrides(table: PlanTable, overrides: PlanOverrides): PlanTable {
  const result: Record<PlanName, PlanLimits | null> = { ...table };
  for (const name of TABLE_PLANS) {
    const override = overrides[name];
    const base = table[name];
    if (!override || !base) continue;
    const merged = { perMinute: override.perMinute ?? base.perMinute, perDay: override.perDay ?? base.perDay };
    if (merged.perDay < merged.perMinute) {
      throw new PlanConfigError(
        `plan ${name}: per-day quota ${merged.perDay} is below the per-minute quota ${merged.perMinute} ` +
          `(check PLAN_${name.toUpperCase()}_PER_MINUTE / PLAN_${name.toUpperCase()}_PER_DAY and the plans file)`,
      );
    }
    result[name] = merged;
  }
  return result;
}

export interface PlanSource {
  /** Path of the plans file. */
  readonly file: string;
  /** Whether a missing file is an error (it was named explicitly by `PLANS_FILE`). */
  readonly required: boolean;
  readonly overrides: PlanOverrides;
}

/**
 * Reads the effective table: the file (or, when the default file is absent, the
 * seed's table) with the environment overrides on top. Throws `PlanConfigError`.
 */
export function loadPlanTable(source: PlanSource): PlanTable {
  let table: PlanTable = DEFAULT_PLAN_TABLE;
  if (existsSync(source.file)) {
    let text: string;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      throw new PlanConfigError(
        `${source.file}: cannot be read (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    table = parsePlanTable(text, source.file);
  } else if (source.required) {
    throw new PlanConfigError(`${source.file}: no such file (set by PLANS_FILE)`);
  }
  return applyPlanOverrides(table, source.overrides);
}

/** `free 60/min 1000/day, pro …`: for logs. */
export function describePlanTable(table: PlanTable): string {
  return PLAN_NAMES.map((name) => {
    const limits = table[name];
    return limits ? `${name} ${limits.perMinute}/min ${limits.perDay}/day` : `${name} per key`;
  }).join(', ');
}
