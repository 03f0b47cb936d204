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
  // Plain object checks, not `instanceof Error`: errors from Node's own modules may
  // come from another realm (e.g. under a test runner's VM context).
  for (let e: unknown = error, depth = 0; isObject(e) && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) {
      return true;
    }
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause ?? (e as { driverError?: unknown }).driverError;
  }
  return false;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
