import type { Socket } from 'node:net';
import type pg from 'pg';

/** The error of a query the server left unanswered (the message pg's own `query_timeout` uses). */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/** What this reads of pg's client: the queries it has sent or queued and not yet had answered, and its socket. */
interface ClientState {
  readonly _activeQuery: unknown;
  readonly _queryQueue: readonly unknown[];
  readonly _sentQueryQueue?: readonly unknown[];
  readonly connection: { readonly stream: Socket };
}

/**
 * Fails every query of `client` once its server has sent nothing for `afterMs`
 * while a query waits for an answer (a server or network that stops answering on
 * an open connection): the connection is destroyed with `QUERY_READ_TIMEOUT`, its
 * queries fail with it, and the pool drops the client. An idle connection (no
 * query outstanding) is left alone however long it stays quiet.
 *
 * Instead of pg's `query_timeout`, which sets a timer per query and wraps its
 * callback in a closure that shares its scope with the query: in pg 8, every
 * finished query (its rows, its callback and what that holds, a whole request)
 * then outlived the young generation, about 2.4 KB promoted per request. This is
 * one inactivity timer per connection, Node's own, refreshed by every read and write.
 */
export function failUnansweredQueries(client: pg.Client, afterMs: number): void {
  const state = client as unknown as ClientState;
  if (!Array.isArray(state._queryQueue) || !('_activeQuery' in state) || !state.connection?.stream) {
    throw new Error(
      'pg.Client no longer keeps _activeQuery, _queryQueue and connection.stream: review failUnansweredQueries',
    );
  }
  const stream = state.connection.stream;
  stream.setTimeout(afterMs);
  stream.on('timeout', () => {
    const waiting =
      state._activeQuery != null || state._queryQueue.length > 0 || (state._sentQueryQueue?.length ?? 0) > 0;
    if (waiting) stream.destroy(new Error(QUERY_READ_TIMEOUT));
  });
}
