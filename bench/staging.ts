import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';

/**
 * `npm run bench:staging`: a default conformance run against a remote-looking staging, the mock answering
 * every request 50 ms late, once with `--concurrency 1` and once with `--concurrency 8`, each as a user runs
 * it (a fresh CLI process, vitest start-up included). Prints the wall time, the requests sent and the exit
 * code of each, and PASS/FAIL against the target: under 20 s with `--concurrency 8`, with the same verdict as
 * serially. Exits 1 on FAIL. `BENCH_LATENCY_MS` changes the latency.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 50);
const TARGET_SECONDS = 20;

interface RunFigures {
  concurrency: number;
  seconds: number;
  requests: number;
  exitCode: number | null;
}

const figures: RunFigures[] = [];
for (const concurrency of [1, 8]) {
  // A fresh, empty mock per run, so both runs meet the same state.
  const mock = await startMock({ port: 0, apiKeys: ['bench-key'], pets: [], latency: { min: LATENCY_MS, max: LATENCY_MS } });
  figures.push(await runSuite(mock.baseUrl, concurrency));
  await mock.close();
}

for (const f of figures) console.log(`--concurrency ${f.concurrency}: ${f.seconds.toFixed(1)} s wall, ${f.requests} requests, exit ${f.exitCode} (${LATENCY_MS} ms per answer)`);
const [serial, parallel] = figures as [RunFigures, RunFigures];
console.log(`speed-up: ${(serial.seconds / parallel.seconds).toFixed(1)}x`);
const pass = parallel.seconds < TARGET_SECONDS && parallel.exitCode === 0 && serial.exitCode === 0;
console.log(`default run with --concurrency 8 at ${LATENCY_MS} ms per answer: ${parallel.seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s): ${pass ? 'PASS' : 'FAIL'}`);
process.exit(pass ? 0 : 1);

/** One default run of the CLI at `concurrency`; the request count comes from the suite's closing line. */
function runSuite(baseUrl: string, concurrency: number): Promise<RunFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'conformance', 'cli.js'), '--base-url', baseUrl, '--api-key', 'bench-key', '--concurrency', String(concurrency)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      const seconds = (performance.now() - started) / 1000;
      const match = /conformance: (\d+) requests in/.exec(output);
      if (match === null || exitCode !== 0) process.stderr.write(output);
      resolve({ concurrency, seconds, requests: Number(match?.[1] ?? 0), exitCode });
    });
  });
}
