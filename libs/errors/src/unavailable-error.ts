/** `Retry-After` of a 503 `SERVICE_UNAVAILABLE`: outages seen here end within seconds (the pool reconnects by itself). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATEs that mean "the database cannot serve now" rather than "the query is wrong":
// connection exceptions (08), shutdowns (57P01-03), too many connections (53300, 53400),
// and a statement cancelled (57014), which is what statement_timeout raises.
const SQLSTATE_UNAVAILABLE = /^(08|57P0[1-3]|57014|53300|53400)/;
// A FATAL (or PANIC) error ends the session: the server refused or dropped the
// connection, e.g. `database "x" is not currently accepting connections` (55000).
const SESSION_ENDING_SEVERITIES = new Set(['FATAL', 'PANIC']);
/**
 * pg's errors that carry no code, known by their message (substrings): every
 * other case here goes by code, SQLSTATE, severity or name. Each is made by the
 * real driver in test/driver-errors.e2e-spec.ts (DE below: the `it` named after the
 * message); the same table is in src/database/README.md. The first three rows
 * are one entry: `Connection terminated` begins all three.
 *
 * | Message                                  | Raised by (pg 8, pg-pool 3)                          | Test                     |
 * | ---------------------------------------- | ---------------------------------------------------- | ------------------------ |
 * | `Connection terminated`                  | Client: its connection ended under a query (`end()`) | DE                       |
 * | `Connection terminated unexpectedly`     | Client: the server or network dropped the connection | DE                       |
 * | `Connection terminated due to connection | pg-pool: gave up opening a connection (in the        | DE                       |
 * | timeout`                                 | service the client's own timeout, below, is shorter) |                          |
 * | `Client has encountered a connection     | Client: a query after its connection failed          | DE                       |
 * | error and is not queryable`              |                                                      |                          |
 * | `Client was closed and is not queryable` | Client: a query after `end()`                        | DE                       |
 * | `timeout expired`                        | Client: `connectionTimeoutMillis` ran out connecting | DE; database-down (slow) |
 * | `Query read timeout`                     | Client: `query_timeout` ran out                      | DE                       |
 *
 * Not here: a refused connection (its `code` is `ECONNREFUSED`), pg-pool's wait for a
 * free connection (overload, not an outage: `isPoolWaitTimeout`), and ioredis's
 * errors, which the rate-limit storage always wraps in its own error of kind
 * `unavailable`.
 */
const MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout expired',
  'Query read timeout',
];
// TypeORM releases a transaction's query runner when its connection fails (server
// restart, terminated backend, cut network); the transaction's next query then
// fails with one of these, which name neither the connection nor the cause.
const ERROR_NAMES = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/**
 * Whether an unexpected error means a dependency (database, cache) is unreachable,
 * in which case the client gets 503 and may retry, rather than 500.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  // Plain object checks, not `instanceof Error`: errors from Node's own modules may
  // come from another realm (e.g. under a test runner's VM context).
  for (let e: unknown = error, depth = 0; isObject(e) && depth < 5; depth++) {
    const { code, message, severity, name } = e as {
      code?: unknown;
      message?: unknown;
      severity?: unknown;
      name?: unknown;
    };
    if (typeof name === 'string' && ERROR_NAMES.has(name)) return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) {
      return true;
    }
    if (typeof severity === 'string' && SESSION_ENDING_SEVERITIES.has(severity)) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause ?? (e as { driverError?: unknown }).driverError;
  }
  return false;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
