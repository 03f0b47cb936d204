/** The api-keys module's public entry: all that other modules and the composition root may import from it. */
export { ApiKeysService } from './application/api-keys.service.js';
export { FirstAdminKey } from './application/first-admin-key.js';
export { KeyUsageRecorder } from './application/key-usage-recorder.js';
export {
  API_KEY_ENTITIES,
  API_KEY_MIGRATIONS,
  ApiKeyStoreModule,
  ApiKeysModule,
  KeyUsageMeterModule,
} from './api-keys.module.js';
