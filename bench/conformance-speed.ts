import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';

/**
 * `npm run bench:conformance` (target: "a default run against the mock in under 30 seconds, with the number
 * of requests it sent and its requests per second printed at the end"). Starts the mock in this process on a
 * free port, runs `petstore-conformance` against it exactly as a user would (default runs, a fresh process,
 * its start-up included) several times, and prints the wall time, requests and requests/s of each run and
 * the median; then the CLI's fixed cost, the wall time of a run of one cheap check (`--check` the first one, an
 * authentication check: a handful of requests), median of the same number of runs. Writes
 * `bench/conformance-speed.json`; exits 1 when the default run's median is 30 s or more, or a run fails.
 *
 * `BENCH_SPEC=<file>` runs the same against the mock of another spec (started empty; `--spec` given to the CLI),
 * with the target for a large spec: a default run in under 10 minutes (for example the ~650-operation
 * multi-file spec `bench/large-spec.ts` writes). Its figures go to `bench/conformance-speed-spec.json`.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const SPEC = process.env['BENCH_SPEC'];
const TARGET_SECONDS = SPEC === undefined ? 30 : 600;

interface RunFigures {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  exitCode: number | null;
}

const mock = await startMock({ port: 0, apiKeys: ['bench-key'], ...(SPEC === undefined ? {} : { spec: SPEC, pets: [] }) });
const figures: RunFigures[] = [];
for (let run = 0; run < RUNS; run++) figures.push(await runSuite(mock.baseUrl));
const fixed: RunFigures[] = [];
const cheapCheck = `auth.${mock.model.operations.find((op) => op.security.length > 0)?.operationId ?? mock.model.operations[0]!.operationId}`;
for (let run = 0; run < RUNS; run++) fixed.push(await runSuite(mock.baseUrl, ['--check', cheapCheck]));
await mock.close();
const fixedMedian = [...fixed].sort((a, b) => a.seconds - b.seconds)[Math.floor(fixed.length / 2)]!;

const median = [...figures].sort((a, b) => a.seconds - b.seconds)[Math.floor(figures.length / 2)]!;
for (const [index, f] of figures.entries()) {
  console.log(`run ${index + 1}: ${f.seconds.toFixed(1)} s wall, ${f.requests} requests, ${f.requestsPerSecond} requests/s, exit ${f.exitCode}`);
}
const pass = median.seconds < TARGET_SECONDS && figures.every((f) => f.exitCode === 0);
console.log(`median: ${median.seconds.toFixed(1)} s for a default run against the mock${SPEC === undefined ? '' : ` of ${SPEC}`} (target < ${TARGET_SECONDS} s): ${pass ? 'PASS' : 'FAIL'}`);
console.log(`fixed cost: median ${fixedMedian.seconds.toFixed(2)} s for a run of one check (${cheapCheck}; ${fixed.map((f) => f.seconds.toFixed(2)).join(', ')} s)`);
const out = join(ROOT, 'bench', SPEC === undefined ? 'conformance-speed.json' : 'conformance-speed-spec.json');
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...(SPEC === undefined ? {} : { spec: SPEC }), runs: figures, median, fixedCost: { check: cheapCheck, runs: fixed, median: fixedMedian }, pass }, null, 2)}\n`);
process.exit(pass ? 0 : 1);

/** One run of the CLI (default, or with `extra` arguments); its figures come from the suite's own closing line. */
function runSuite(baseUrl: string, extra: readonly string[] = []): Promise<RunFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'conformance', 'cli.js'), '--base-url', baseUrl, '--api-key', 'bench-key', ...(SPEC === undefined ? [] : ['--spec', SPEC]), ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      const seconds = (performance.now() - started) / 1000;
      const match = /conformance: (\d+) requests in [\d.]+ s \((\d+) requests\/s\)/.exec(output);
      if (match === null || exitCode !== 0) process.stderr.write(output);
      resolve({ seconds, requests: Number(match?.[1] ?? 0), requestsPerSecond: Number(match?.[2] ?? 0), exitCode });
    });
  });
}
