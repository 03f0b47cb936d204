/**
 * Told, per request, what the limiter did for an API key: a request counted
 * against its plan, a refusal (429), a ban started. Called on the request path,
 * so an implementation keeps it to an in-memory increment (the api-keys module
 * binds it and persists the totals in batches).
 */
export abstract class KeyUsageMeter {
  abstract counted(keyId: number): void;
  abstract refused(keyId: number): void;
  abstract banned(keyId: number): void;
}
