/**
 * Unit tests live beside the code (`*.spec.ts`), the test fakes' and the worked extension examples' included;
 * e2e tests in `test/` (`*.e2e-spec.ts`) run on a real PostgreSQL.
 */
const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@petstore/(.*)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
    '/node_modules/@nestjs/throttler/dist/.+\\.js$': '<rootDir>/test/support/jest/nest-esm-bridge.transform.mjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/throttler/)'],
  setupFilesAfterEnv: ['<rootDir>/test/support/jest/nest-esm-bridge.setup.ts'],
  testEnvironment: 'node',
};

export default {
  // Global, not per project: Jest ignores testTimeout inside a project entry.
  testTimeout: 60_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/test/fakes/**/*.spec.ts',
        '<rootDir>/test/extension/**/*.spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
    },
    {
      // Outages, overload and slow clients: timing-bound, kept out of `npm test` (`npm run test:slow`, run by CI).
      ...shared,
      displayName: 'slow',
      testMatch: ['<rootDir>/test/**/*.slow-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
    },
    {
      // The admin console in headless Chromium against the real service (`npm run test:browser`, run by CI).
      ...shared,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/**/*.browser-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
    },
  ],
};
