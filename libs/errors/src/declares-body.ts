import type { IncomingMessage } from 'node:http';

/**
 * Whether a request says a body follows its head (`Transfer-Encoding`, or a
 * `Content-Length` other than 0). One that does not has fully arrived with its
 * head, even while Node's parser has not yet flagged it complete.
 */
export function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
