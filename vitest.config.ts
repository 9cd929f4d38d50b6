import { availableParallelism } from 'node:os';
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
    // One test file per core. Vitest's default keeps a core free (one file at a time on CI's two cores), though most
    // files spend much of their time waiting on servers, browsers and child processes they start.
    maxWorkers: availableParallelism(),
  },
});
