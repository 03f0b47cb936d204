const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATEs that mean "the database cannot serve now" rather than "the query is wrong".
const SQLSTATE_UNAVAILABLE = /^(08|57P0[1-3]|53300|53400)/;
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection is closed',
  'connect ECONNREFUSED',
  'Client has encountered a connection error',
  'Client was closed',
];

/**
 * Whether an unexpected error means a dependency (database, cache) is unreachable,
 * in which case the client gets 503 and may retry, rather than 500.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) {
      return true;
    }
    if (MESSAGES.some((m) => e instanceof Error && e.message.includes(m))) return true;
    const next: unknown = (e as { cause?: unknown }).cause ?? (e as { driverError?: unknown }).driverError;
    e = next;
  }
  return false;
}
