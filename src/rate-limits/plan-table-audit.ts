import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditTrail, changesBetween, SYSTEM } from '../audit/index.js';
import { PLAN_NAMES, type PlanTable } from './plan.js';
import { describePlanTable } from './plans-file.js';
import { PlanTableService } from './plan-table.js';

/** A plan table's identity in the audit log: a hash of its content, the same on every instance. */
export function planTableId(table: PlanTable): string {
  return createHash('sha256').update(describePlanTable(table)).digest('hex').slice(0, 16);
}

/**
 * Records each new plan table in the audit log (`plans.reloaded`, by the service):
 * the one in force at start-up when it differs from the last recorded, and every
 * reload that changes it (file watch, SIGHUP). Every instance applies a change on
 * its own; the log keeps one entry per change, whichever instance records it first.
 */
@Injectable()
export class PlanTableAudit implements OnApplicationBootstrap {
  private readonly logger = new Logger('RateLimit');
  /** The recording under way, so that tests and shutdown can wait for it. */
  private recording: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly plans: PlanTableService,
    private readonly audit: AuditTrail,
  ) {}

  onApplicationBootstrap(): void {
    this.plans.onChange((previous, next) => this.record(previous, next));
    this.record(null, this.plans.current());
  }

  /** Resolves once every table recorded so far is in the log (or its failure logged). */
  settled(): Promise<unknown> {
    return this.recording;
  }

  private record(previous: PlanTable | null, next: PlanTable): void {
    const entry = {
      ...SYSTEM,
      action: 'plans.reloaded',
      target: { type: 'plan_table', id: planTableId(next) },
      changes: changesBetween(previous, next, PLAN_NAMES),
    };
    this.recording = this.recording
      .then(() => this.audit.recordShared(entry))
      .catch((error: unknown) =>
        this.logger.warn(
          `Plan table change not recorded in the audit log: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }
}
