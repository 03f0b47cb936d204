import type { AuthenticatedRequest } from '@petstore/auth';
import type { Request } from 'express';
import type { AuditContext } from '../domain/audit-entry.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Who makes the changes of an admin request: its API key, the client address as
 * Express resolves it (`TRUST_PROXY`), and the request's id (`X-Request-Id`).
 */
export function auditContextOf(req: Request): AuditContext {
  const key = (req as AuthenticatedRequest).apiKey;
  const headerId = req.res?.getHeader('X-Request-Id');
  const requestId = typeof headerId === 'string' && REQUEST_ID.test(headerId) ? headerId : undefined;
  const actor = key
    ? { type: 'api_key' as const, id: key.id, ...(req.ip ? { address: req.ip } : {}) }
    : { type: 'system' as const };
  return requestId === undefined ? { actor } : { actor, requestId };
}
