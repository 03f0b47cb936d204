import { Injectable, Optional } from '@nestjs/common';
import { Clock, systemClock } from '../../shared/clock.js';
import { UnitOfWork, type Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { NewAuditEntry } from '../domain/audit-entry.js';
import { AuditLogRepository } from '../domain/audit-log.repository.js';
import type { AuditTrail } from '../domain/audit-trail.js';

/** The audit trail on the audit log's repository, entries timestamped by the application's clock. */
@Injectable()
export class AuditTrailService implements AuditTrail {
  constructor(
    private readonly log: AuditLogRepository,
    private readonly uow: UnitOfWork,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  record(tx: Transaction, entry: NewAuditEntry): Promise<void> {
    return this.log.append(tx, entry, this.clock.now());
  }

  recordApplied(entry: NewAuditEntry): Promise<void> {
    return this.uow.run((tx) => this.log.append(tx, entry, this.clock.now()));
  }

  recordShared(entry: NewAuditEntry): Promise<boolean> {
    return this.log.appendIfChanged(entry, this.clock.now());
  }
}
