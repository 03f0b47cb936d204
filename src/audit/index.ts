/** The audit module's public entry: the trail other modules record their admins' changes in, and the composition root's modules. */
export {
  type AuditActor,
  type AuditChanges,
  type AuditContext,
  type AuditTarget,
  type AuditValue,
  changesBetween,
  CLI,
  isEmptyChange,
  type NewAuditEntry,
  SYSTEM,
} from './domain/audit-entry.js';
export { AuditTrail } from './domain/audit-trail.js';
export { auditContextOf } from './http/audit-context.js';
export { AUDIT_ENTITIES, AUDIT_MIGRATIONS, AuditModule, AuditTrailModule } from './audit.module.js';
