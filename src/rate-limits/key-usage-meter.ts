/**
 * Told, per request, what the limiter did for an API key: a request counted
 * against its plan, a refusal (429), a ban started. Called on the request path,
 * so an implementation keeps it to an in-memory increment (the api-keys module
 * binds it and persists the totals in batches).
 */
export interface KeyUsageMeter {
  counted(keyId: number): void;
  refused(keyId: number): void;
  banned(keyId: number): void;
}

export const KEY_USAGE_METER = Symbol('KeyUsageMeter');
