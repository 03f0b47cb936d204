import { Injectable } from '@nestjs/common';
import type { Page } from '../../shared/paging/page.js';
import type { AuditEntry, AuditLogFilter, AuditPageRequest } from '../domain/audit-entry.js';
import { AuditLogRepository } from '../domain/audit-log.repository.js';

/** Reading the audit log: newest first, filtered. */
@Injectable()
export class AuditLogService {
  constructor(private readonly log: AuditLogRepository) {}

  list(filter: AuditLogFilter, page: AuditPageRequest): Promise<Page<AuditEntry>> {
    return this.log.page(filter, page);
  }
}
