import type { ApiKeyStore } from '@petstore/auth';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';

/**
 * Port: the key store in an open transaction, so that a change of a key and its
 * audit entry commit together. Its `findById` locks the key's row until the commit,
 * so the `before` of a change is what the change replaced.
 */
export abstract class TransactionalApiKeyStore {
  abstract in(tx: Transaction): ApiKeyStore;
}
