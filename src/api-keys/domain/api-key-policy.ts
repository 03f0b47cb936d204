import type { KeyLimits } from '@petstore/auth';
import { KeyLimitsMismatchError, KeyLimitsOutOfOrderError } from './api-key.errors.js';

/**
 * Enterprise keys carry their own limits; every other plan takes the plan table's.
 * Own limits obey the plan table's rule: a day allows at least a minute's worth.
 */
export function assertLimitsFitPlan(plan: string, limits: KeyLimits | null): void {
  if ((plan === 'enterprise') !== (limits !== null)) throw new KeyLimitsMismatchError(plan, limits !== null);
  if (limits && limits.perDay < limits.perMinute) throw new KeyLimitsOutOfOrderError(limits);
}
