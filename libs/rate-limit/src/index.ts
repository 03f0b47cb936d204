export { DEFAULT_PLAN_TABLE, isPlanName, PLAN_NAMES, type PlanLimits, type PlanName, type PlanTable } from './plan.js';
