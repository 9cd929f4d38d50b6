import { defineConfig } from 'vitest/config';

/** Vitest for `npm test`: unit tests of the mock, the conformance suite against the mock, and the self-test. */
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
