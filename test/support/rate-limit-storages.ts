import { randomUUID } from 'node:crypto';
import { deleteRedisKeys } from './spawn-service.mjs';

/** Environment overrides that put a test app's counters in one storage. */
export type StorageEnv = () => Record<string, string>;

/**
 * The counter storages a rate-limit spec runs on: in-process always, and Redis
 * when REDIS_URL is set (CI), each app under a fresh key prefix whose keys are
 * removed after the file. Call it at a spec file's top level (it registers the
 * clean-up with `afterAll`).
 */
export function rateLimitStorages(prefixName: string): Array<[string, StorageEnv]> {
  const storages: Array<[string, StorageEnv]> = [['memory', () => ({ REDIS_URL: '' })]];
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) return storages;
  const prefixes: string[] = [];
  storages.push([
    'redis',
    () => {
      const prefix = `${prefixName}:${randomUUID()}:`;
      prefixes.push(prefix);
      return { REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
    },
  ]);
  afterAll(async () => {
    for (const prefix of prefixes) await deleteRedisKeys(redisUrl, prefix);
  });
  return storages;
}
