// Whether a Redis server answers PING, for the tests and the bench (plain ESM so `node` runs the
// bench without a build; types in redis-ping.d.mts).
import { Redis } from 'ioredis';

/**
 * One PING at `url` on a client of its own that never retries and is disconnected whatever
 * happened: no reconnect timer of ioredis outlives the call. A client retried by hand (calling
 * `connect()` while it was reconnecting) once left one behind that kept reconnecting to a
 * killed server and kept jest from exiting.
 */
export async function redisAnswersPing(url) {
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
  });
  probe.on('error', () => undefined); // a refused connection is the answer, not an error to report
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
