import { defineConfig } from 'vitest/config';

/**
 * Vitest for `npm test`: unit tests of the spec model, the mock and the suite, the suite against the mock and its
 * self-test, the corpus of edited specs, staging conditions and Redis replicas.
 */
export default defineConfig({
  test: {
    // `npm test` runs the tests; `npm run measure:escapes` (VITEST_MEASURE=1) runs the self-test's measurements instead.
    include: process.env['VITEST_MEASURE'] === '1' ? ['**/*.measure.ts'] : ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file at a time: the browser and stream tests see pieces 100 ms apart arrive apart, which a second
    // file on the other core breaks (D361); `VITEST_MAX_WORKERS` raises it on a larger machine.
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 1),
  },
});
