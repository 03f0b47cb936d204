import { DynamicModule, InjectionToken, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { ApiKeyStore } from './api-key.store.js';

export interface AuthModuleOptions {
  /** A module that provides and exports the `ApiKeyStore` port. */
  readonly storeModule: NonNullable<ModuleMetadata['imports']>[number];
  /**
   * A provider token of the application's clock (an object with `now(): Date`), when
   * it may bind one: keys' expiries are then judged by it, like the application's own
   * time rules (a roll's overlap). Absent or unbound: the system's time.
   */
  readonly clock?: InjectionToken;
}

interface WallClock {
  now(): Date;
}

/**
 * API-key authentication: registers the global guard and the caching resolver
 * on top of whatever store the application binds to `ApiKeyStore`.
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    const resolver: Provider = {
      provide: ApiKeyResolver,
      useFactory: (store: ApiKeyStore, clock?: WallClock) =>
        new ApiKeyResolver(store, undefined, clock ? () => clock.now().getTime() : undefined),
      inject: options.clock ? [ApiKeyStore, { token: options.clock, optional: true }] : [ApiKeyStore],
    };
    return {
      module: AuthModule,
      global: true,
      imports: [options.storeModule],
      providers: [resolver, { provide: APP_GUARD, useClass: ApiKeyGuard }],
      exports: [ApiKeyResolver],
    };
  }
}
