// The lint half of the quality gate (`npm run check`; the type check is the other half): type-aware
// rules for what the compiler does not catch, over the packages, the tests, the benchmarks and the tools.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['**/node_modules/', '**/dist/', 'test/results/', 'packages/byhand/bin/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./packages/*/tsconfig.json', './tsconfig.check.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's test() and describe(), and the tests' own test() over it, return promises the runner awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [
          { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          { from: 'file', path: 'test/support/node-test.ts', name: ['test', 'it'] },
        ],
      }],
      // Handlers, hosts and stores implement promise-returning interfaces whether or not they wait.
      '@typescript-eslint/require-await': 'off',
      // The compiler resolves every name (checkJs covers the JavaScript too), and knows Node's globals.
      'no-undef': 'off',
      // What the installed SDK marks @deprecated is used only on purpose, with the reason at the call.
      '@typescript-eslint/no-deprecated': 'error',
      // Terminal and log sanitisers match control characters on purpose.
      'no-control-regex': 'off',
      // Commands and hosts are plain objects of functions that never read `this`.
      '@typescript-eslint/unbound-method': 'off',
      // An abort rejects with the signal's reason, whatever the caller made it.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests, benchmarks and tools read JSON from the wire and assert on it: `any` from JSON.parse is their input.
    files: ['test/**', 'bench/**', 'tools/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Test servers take async handlers; a failure there fails the test that made the request.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
);
