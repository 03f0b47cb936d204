import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogService } from './application/audit-log.service.js';
import { AuditLogSweep } from './application/audit-log-sweep.js';
import { AuditTrailService } from './application/audit-trail.service.js';
import { AuditLogRepository } from './domain/audit-log.repository.js';
import { AuditTrail } from './domain/audit-trail.js';
import { AuditLogController } from './http/audit-log.controller.js';
import { AuditEntryOrmEntity } from './infrastructure/audit-entry.orm-entity.js';
import { AuditLog1795867574621 } from './infrastructure/migrations/1795867574621-audit-log.js';
import { TypeOrmAuditLogRepository } from './infrastructure/typeorm-audit-log.repository.js';

/** This module's tables, as TypeORM entities. */
export const AUDIT_ENTITIES = [AuditEntryOrmEntity];

/** This module's migrations, in order. */
export const AUDIT_MIGRATIONS = [AuditLog1795867574621];

/**
 * The audit trail that modules record their admins' changes in (`AuditTrail`):
 * import this module where a use case records one. It runs no timers, so the keys
 * command line imports it too.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryOrmEntity])],
  providers: [
    { provide: AuditLogRepository, useClass: TypeOrmAuditLogRepository },
    { provide: AuditTrail, useClass: AuditTrailService },
  ],
  exports: [AuditTrail, AuditLogRepository],
})
export class AuditTrailModule {}

/** The serving application's side of the audit log: GET /admin/audit-log and the retention sweep. */
@Module({
  imports: [AuditTrailModule],
  controllers: [AuditLogController],
  providers: [AuditLogService, AuditLogSweep],
})
export class AuditModule {}
