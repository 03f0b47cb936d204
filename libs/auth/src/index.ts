export { type ApiKey, type KeyLimits, hasScope } from './api-key.js';
export { generateApiKeySecret, hashApiKeySecret, visiblePrefix } from './api-key-secret.js';
export { API_KEY_STORE, type ApiKeyChanges, type ApiKeyStore, type NewApiKeyRecord } from './api-key.store.js';
export { ApiKeyGuard } from './api-key.guard.js';
export { ApiKeyResolver, API_KEY_CACHE_TTL_MS } from './api-key.resolver.js';
export {
  API_KEY_HEADER,
  API_KEY_SECURITY,
  type AuthenticatedRequest,
  CurrentApiKey,
  Public,
  RequireScope,
} from './auth.decorators.js';
export { AuthModule, type AuthModuleOptions } from './auth.module.js';
export { isScope, type Scope, SCOPES } from './scope.js';
