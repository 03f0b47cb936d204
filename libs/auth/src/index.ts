export { type ApiKey, type ApiKeyAccount, type KeyLimits, hasScope, isExpired } from './api-key.js';
export { type AddressRule, addressAllowed, MAX_ADDRESS_RULES, parseAddressRule } from './address-rules.js';
export { generateApiKeySecret, hashApiKeySecret, visiblePrefix } from './api-key-secret.js';
export {
  type ApiKeyChanges,
  type ApiKeyFilter,
  type ApiKeyRoll,
  ApiKeyStore,
  type NewApiKeyRecord,
} from './api-key.store.js';
export { ApiKeyGuard } from './api-key.guard.js';
export {
  ApiKeyResolver,
  API_KEY_CACHE_TTL_MS,
  API_KEY_REFRESH_AFTER_MS,
  API_KEY_STALE_IF_ERROR_MS,
  type KeyResolverStats,
} from './api-key.resolver.js';
export { KeyStoreUnavailableError } from './key-store-unavailable.error.js';
export { type Authentication, authenticateRequest } from './authenticate-request.js';
export {
  API_KEY_HEADER,
  API_KEY_SECURITY,
  type AuthenticatedRequest,
  CurrentApiKey,
  Public,
  RequireApiKey,
  RequireScope,
} from './auth.decorators.js';
export { AuthModule, type AuthModuleOptions } from './auth.module.js';
export { isScope, type Scope, SCOPES } from './scope.js';
