import type { KeyLimits } from '@petstore/auth';
import { KeyLimitsMismatchError } from './api-key.errors.js';

/** Enterprise keys carry their own limits; every other plan takes the plan table's. */
export function assertLimitsFitPlan(plan: string, limits: KeyLimits | null): void {
  if ((plan === 'enterprise') !== (limits !== null)) throw new KeyLimitsMismatchError(plan, limits !== null);
}
