/**
 * Told, per request, what the limiter did for an API key: a request counted
 * against its plan, a refusal (429), a ban started. Called on the request path,
 * so an implementation keeps it to an in-memory increment (the api-keys module
 * binds it and persists the totals in batches, with each key's last use).
 */
export abstract class KeyUsageMeter {
  /**
   * `accountId`: the account the key belongs to as the request is made (its usage is
   * attributed to it); `previousSecret`: the request came with the key's previous secret (after a roll).
   */
  abstract counted(keyId: number, accountId: number | null, previousSecret?: boolean): void;
  abstract refused(keyId: number, accountId: number | null, previousSecret?: boolean): void;
  abstract banned(keyId: number, accountId: number | null): void;
  /**
   * A conditional GET answered 304: not a request of the day's count (neither the key's nor
   * its account's), but a use of the key.
   */
  abstract notModified(keyId: number, accountId: number | null, previousSecret?: boolean): void;
}
