import { AppModule, type AppExtensions } from '../../src/app.module.js';
import { createCategory, issueStoreKey, type StoreKey } from './store-builders.js';
import { createTestApp, type TestApp } from './test-app.js';

/** A team's extension composed with the real modules, and what its e2e tests start from. */
export interface ExtensionTestApp {
  readonly t: TestApp;
  /** Scopes read, write and admin. */
  readonly admin: StoreKey;
  /** Two store keys with the read and write scopes. */
  readonly alice: StoreKey;
  readonly bob: StoreKey;
  /** A category named Dogs. */
  readonly categoryId: number;
  /** Undoes the extension's migrations (other suites share the database and list the core's only), then closes. */
  close(): Promise<void>;
}

/**
 * The real app with `extensions` registered through `AppModule.register`, as a team's
 * composition root would, on an emptied database; `env` overrides configuration.
 */
export async function createExtensionTestApp(
  extensions: Required<AppExtensions>,
  env: Record<string, string> = {},
): Promise<ExtensionTestApp> {
  const t = await createTestApp(env, { rootModule: AppModule.register(extensions) });
  await t.reset();
  const admin = await issueStoreKey(t, ['read', 'write', 'admin']);
  const alice = await issueStoreKey(t, ['read', 'write']);
  const bob = await issueStoreKey(t, ['read', 'write']);
  const categoryId = await createCategory(t, admin.secret, 'Dogs');
  return {
    t,
    admin,
    alice,
    bob,
    categoryId,
    close: async () => {
      for (let undone = 0; undone < extensions.migrations.length; undone++) await t.db.undoLastMigration();
      await t.close();
    },
  };
}
