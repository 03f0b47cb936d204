/** Plans sold by the store (API.md section 5). */
export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

/** A plan's quotas; `null` for enterprise, whose limits are set per key. */
export interface PlanLimits {
  readonly perMinute: number;
  readonly perDay: number;
}

export type PlanTable = Readonly<Record<PlanName, PlanLimits | null>>;

/** The seed's table, shipped as the default. */
export const DEFAULT_PLAN_TABLE: PlanTable = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: null,
};
