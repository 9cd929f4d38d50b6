import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The test files that watch time: a browser or a stream that sees pieces 100 ms apart arrive apart, a console
 * that answers within its poll, a socket or a shutdown within its deadline. A second file on the other core breaks
 * them (D361), so they run one at a time, after every other file. A browser test that only reads what a page shows
 * (CORS answers, a report file) watches no time and runs with the others (D871). None of them changes what a process
 * shares, so they too share one worker's modules (D874): in this serial tail, each file's import is wall time.
 */
const TIMED = [
  'test/console.test.ts',
  'test/stream-console.test.ts',
  'test/stream-browser.test.ts',
  'test/shadow-console.test.ts',
  'test/redis/console.test.ts',
  'test/staging/latency.test.ts',
  'mock/streams.test.ts',
  'mock/console-api.test.ts',
  'mock/cli-limits.test.ts',
  'mock/robustness-socket.test.ts',
  'mock/prefer.test.ts',
  'mock/shutdown.test.ts',
];

/**
 * The test files that change what a process shares: a module replaced (`vi.mock`), the environment, a global's
 * method spied on, the clock. Each runs in a process of its own; every other file shares its worker's modules with
 * the files before it (`isolate: false`), which spares each file the import of the model, the mock and the suite
 * (about a second each, D361).
 */
const ISOLATED = [
  'test/self-test/isolation.test.ts',
  'test/self-test/run-suite.test.ts',
  'test/load/load.test.ts',
  'test/staging/tls-proxy.test.ts',
  'model/shared-validators.test.ts',
  'model/document-cache.test.ts',
  'mock/journal.test.ts',
  'cli/config.test.ts',
  'proxy/record.test.ts',
  'proxy/tls.test.ts',
  'conformance/arbitraries/whole-body.test.ts',
];

const measuring = process.env['VITEST_MEASURE'] === '1';

/**
 * Vitest for `npm test`: unit tests of the spec model, the mock and the suite, the suite against the mock and its
 * self-test, the corpus of edited specs, staging conditions, Redis replicas and real servers. Every file but the
 * timed ones runs one per core (`VITEST_MAX_WORKERS` overrides); the timed ones run alone, afterwards.
 * `npm run measure:escapes` (VITEST_MEASURE=1) runs the self-test's measurements instead.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? availableParallelism()),
    projects: measuring
      ? [{ extends: true, test: { name: 'measure', include: ['**/*.measure.ts'], exclude: ['node_modules/**', 'dist/**'] } }]
      : [
          { extends: true, test: { name: 'parallel', include: ['**/*.test.ts'], exclude: ['node_modules/**', 'dist/**', ...TIMED, ...ISOLATED], isolate: false, sequence: { groupOrder: 0 } } },
          { extends: true, test: { name: 'isolated', include: ISOLATED, sequence: { groupOrder: 0 } } },
          { extends: true, test: { name: 'timed', include: TIMED, fileParallelism: false, isolate: false, sequence: { groupOrder: 1 } } },
        ],
  },
});
