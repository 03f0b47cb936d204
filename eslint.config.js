import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const TESTS = ['**/*.spec.ts', 'test/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'libs/client/dist/**', 'coverage/**', 'data/**', 'node_modules/**'] },
  js.configs.recommended,
  // Type-aware: each TypeScript file is checked with the types of its tsconfig (the root one, libs/client's).
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Off: with emitDecoratorMetadata, constructor parameter types must stay value imports for DI.
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Promises dropped or misused (in a callback whose result is ignored: timers, event listeners),
      // awaits of what is no promise, and switches that forget a member of a union: src, libs and test alike.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: TESTS,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // Off: supertest's `res.body` (and `headers`) is `any` by design, and the tests read the answers they check
      // through it; these rules would flag nearly every assertion. Production code keeps them.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off: the in-memory fakes of async ports (repositories, stores, resolvers, sleeps, event handlers) are
      // `async` without awaiting anything so that they behave as what they stand for: they answer on a later
      // turn and fail by rejecting, never by throwing at the call. None of the rule's findings in the tests was a
      // missing await. The rest stays on (unbound-method, no-unnecessary-type-assertion, no-base-to-string, …):
      // their few findings in the tests were fixed.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Throws a plain object on purpose, to check that the error filter answers it as any other failure.
    files: ['test/errors.e2e-spec.ts'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    // Plain JavaScript (scripts, tools, benches, jest's setup): no tsconfig, so no type information.
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', globalThis: 'readonly' } },
  },
  prettier,
);
