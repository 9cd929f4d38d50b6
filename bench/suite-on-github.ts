import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';

/**
 * `npm run build && node dist/bench/suite-on-github.js [extra CLI arguments]` (target: the suite's default run
 * against the mock of GitHub's description finishes within 10 minutes in at most 1 GB). Starts the mock of
 * `@octokit/openapi`'s `api.github.com.json` in this process on a free port, runs `petstore-conformance --spec` against
 * it as a user would (a fresh process, its defaults, `extra` appended: `--check …` to measure a subset), and prints
 * the wall time, the CLI's peak resident memory (`VmHWM` of its process, read every 250 ms), this process's (the
 * mock's) peak, the exit code and the suite's closing lines. Writes `bench/suite-on-github.json`.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const KEY = 'bench-github-key-0123456789';
const TARGET_SECONDS = 600;
const TARGET_BYTES = 1024 * 1024 * 1024;

const spec = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
if (!existsSync(spec)) {
  console.error(`GitHub's description is not installed (${spec}): nothing to measure`);
  process.exit(2);
}

const mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
let mockPeak = process.memoryUsage().rss;
const started = performance.now();
const child = spawn(process.execPath, [join(ROOT, 'dist', 'conformance', 'cli.js'), '--spec', spec, '--base-url', mock.baseUrl, '--api-key', KEY, ...process.argv.slice(2)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
let suitePeak = 0;
const poll = setInterval(() => {
  mockPeak = Math.max(mockPeak, process.memoryUsage().rss);
  suitePeak = Math.max(suitePeak, peakOf(child.pid));
}, 250);
const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
clearInterval(poll);
const seconds = (performance.now() - started) / 1000;
await mock.close();

const closing = output.trimEnd().split('\n').slice(-6);
const pass = seconds < TARGET_SECONDS && suitePeak < TARGET_BYTES;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
console.log(closing.join('\n'));
console.log(`suite on the mock of GitHub's description: ${seconds.toFixed(1)} s wall, suite peak RSS ${mib(suitePeak)}, mock peak RSS ${mib(mockPeak)}, exit ${exitCode} (target < ${TARGET_SECONDS} s, < ${mib(TARGET_BYTES)}): ${pass ? 'PASS' : 'FAIL'}`);
writeFileSync(join(ROOT, 'bench', 'suite-on-github.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, arguments: process.argv.slice(2), seconds, suitePeakBytes: suitePeak, mockPeakBytes: mockPeak, exitCode, closing, pass }, null, 2)}\n`);
process.exit(pass ? 0 : 1);

/** The peak resident memory of process `pid` in bytes (`VmHWM` of /proc/<pid>/status), 0 when it cannot be read. */
function peakOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    // The process has ended between two polls: its last reading stands.
    return 0;
  }
}
