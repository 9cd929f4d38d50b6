import { spawn } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { barChart, type Group } from './chart.js';
import { cpuSeconds, firstOk, forkTarget, freePort, startPrism, stopChild, type Target } from './children.js';
import { measure, type Load, type Measured } from './autocannon-load.js';

/**
 * `npm run bench`: the mock against the floor of Node's HTTP stack and against Prism, on this
 * machine, load generator (autocannon, 50 connections) in this process, each server in its own child.
 * Rounds are interleaved (bare, mock, prism, bare, mock, ...) so the machine's drift cancels: each server's
 * median round is reported, and each ratio is the median of the per-round ratios. `--quick` (or `BENCH_QUICK=1`) runs one short round for a smoke test.
 * `--only=list,create,size,startup` runs some scenarios. Writes `bench/results.json` and `bench/results.svg`;
 * exits 1 when a target fails.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const QUICK = process.argv.includes('--quick') || process.env['BENCH_QUICK'] === '1';
const ROUNDS = QUICK ? 1 : 11;
const SECONDS = QUICK ? 2 : 3;
const WARMUP_SECONDS = QUICK ? 1 : 3;
const STARTS = QUICK ? 2 : 5;

const KEY = 'petstore-dev-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const LIST_PATH = '/pets?limit=20&status=available';
/** A `NewPet` whose int64 `categoryId` is 2^63-1: exact only with the mock's lossless parse. */
const NEW_PET = '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}';
const POST = { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: NEW_PET } as const;

type Summary = Measured & { rounds: Measured[] };
/** One target of the benchmark (README › Benchmarks) and whether this run met it. */
interface Goal {
  name: string;
  value: number;
  unit: string;
  goal: string;
  pass: boolean;
  /** For a ratio: the ratio of each pair of rounds. */
  rounds?: number[];
}

/** Runs `rounds` interleaved rounds of the same load against each target; returns the median round of each. */
async function compare(targets: Target[], load: (target: Target) => Omit<Load, 'duration'>): Promise<Record<string, Summary>> {
  for (const target of targets) await measure({ ...load(target), duration: WARMUP_SECONDS });
  const rounds: Record<string, Measured[]> = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let index = 0; index < ROUNDS; index++) {
    for (const target of targets) {
      const cpuBefore = cpuSeconds(target.child.pid);
      const measured = await measure({ ...load(target), duration: SECONDS });
      measured.cpuMicrosPerRequest = round((1e6 * (cpuSeconds(target.child.pid) - cpuBefore)) / Math.max(1, measured.total), 1);
      rounds[target.name]!.push(measured);
      log(`  round ${index + 1} ${target.name.padEnd(10)} ${fmt(measured.requestsPerSecond)} req/s  p99 ${measured.p99Ms} ms  server CPU ${measured.cpuMicrosPerRequest} us/req  failures ${measured.failures}${measured.failures > 0 ? ` ${JSON.stringify(measured.statusCodes)}` : ''}`);
    }
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, list]) => [name, { ...median(list), rounds: list }]));
}

/** The median of a list of numbers (the mean of the two middle ones for an even count). */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

function median(list: Measured[]): Measured {
  return {
    requestsPerSecond: middle(list.map((m) => m.requestsPerSecond)),
    p99Ms: middle(list.map((m) => m.p99Ms)),
    cpuMicrosPerRequest: middle(list.map((m) => m.cpuMicrosPerRequest ?? 0)),
    failures: list.reduce((sum, m) => sum + m.failures, 0),
    total: list.reduce((sum, m) => sum + m.total, 0),
    statusCodes: {},
  };
}

/** Milliseconds from spawning `command` until `GET /v1/pets` with the key first answers 200; the process group is then stopped. */
async function startup(command: string, args: (port: number) => string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args(port), { cwd: ROOT, stdio: 'ignore', detached: true });
  await firstOk(`http://127.0.0.1:${port}/v1/pets`, AUTH, 30_000);
  const ms = performance.now() - started;
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  await stopChild(child);
  return ms;
}

/**
 * A ratio target from paired rounds: round i of `a` over round i of `b` (measured seconds apart), then the
 * median of those ratios. Other processes on a shared machine change its speed from one minute to the next;
 * pairing each round with its neighbour cancels that drift better than a ratio of two medians.
 */
function ratioTarget(name: string, a: Summary, b: Summary, minimum: number): Goal {
  const ratios = a.rounds.map((measured, i) => measured.requestsPerSecond / b.rounds[i]!.requestsPerSecond);
  const value = middle(ratios);
  return { name, value: round(value, 3), unit: 'ratio', goal: `>= ${minimum}`, pass: value >= minimum, rounds: ratios.map((r) => round(r, 3)) };
}

/**
 * Not a target but a steadier view of the same thing: the server CPU time per request of `b`
 * over that of `a`, median of the paired rounds. Throughput on a shared 2-core machine swings with other
 * processes; the CPU a server spends per request does not.
 */
function cpuRatio(name: string, a: Summary, b: Summary): Record<string, unknown> {
  const ratios = a.rounds.map((measured, i) => (b.rounds[i]!.cpuMicrosPerRequest ?? 0) / Math.max(0.1, measured.cpuMicrosPerRequest ?? 0));
  const value = round(middle(ratios), 3);
  log(`  ${name}: ${value} (${ratios.map((r) => round(r, 2)).join(' ')})`);
  return { name, value, rounds: ratios.map((r) => round(r, 3)) };
}

/** What the scenarios add to as they run: targets met or not, chart groups, raw figures, children to stop. */
interface Run {
  targets: Goal[];
  groups: Group[];
  results: Record<string, unknown>;
  own<T extends Target>(target: T): T;
}

/** `GET /v1/pets?limit=20&status=available` (auth, query validation, filter) on bare, mock and Prism. */
async function listScenario(run: Run): Promise<void> {
  log(`\nGET /v1${LIST_PATH}`);
  const bare = run.own(await forkTarget('bare', 'bare-server', [KEY]));
  const mock = run.own(await forkTarget('mock', 'mock-server', ['1000']));
  const prism = run.own(await startPrism(LIST_PATH, AUTH));
  const list = await compare([bare, mock, prism], (target) => ({ url: `${target.base}${LIST_PATH}`, headers: AUTH }));
  run.results['list'] = list;
  run.targets.push(ratioTarget('list: mock / bare node:http', list['mock']!, list['bare']!, 0.8));
  run.results['listCpu'] = [cpuRatio('CPU per request, bare / mock', list['mock']!, list['bare']!), cpuRatio('CPU per request, prism / mock', list['mock']!, list['prism']!)];
  run.targets.push(ratioTarget('list: mock / prism', list['mock']!, list['prism']!, 10));
  // Not a target: how far the floor itself is above Prism in this run, the ceiling of the ratio above.
  const floor = ratioTarget('list: bare / prism (the ceiling)', list['bare']!, list['prism']!, 0);
  log(`  throughput, bare / prism (what mock / prism could reach at best): ${floor.value} (${floor.rounds!.join(' ')})`);
  run.results['listFloorOverPrism'] = { value: floor.value, rounds: floor.rounds };
  run.groups.push(group('GET /v1/pets?limit=20&status=available', list));
  await Promise.all([bare.stop(), mock.stop(), prism.stop()]);
}

/** `POST /v1/pets` (auth, body validation, int64-exact parse, store) on a fresh mock and a bare JSON server. */
async function createScenario(run: Run): Promise<void> {
  log('\nPOST /v1/pets');
  const bare = run.own(await forkTarget('bare', 'bare-server', [KEY]));
  const mock = run.own(await forkTarget('mock', 'mock-server', ['0']));
  const create = await compare([bare, mock], (target) => ({ url: `${target.base}/pets`, ...POST }));
  run.results['create'] = create;
  run.targets.push(ratioTarget('create: mock / bare JSON server', create['mock']!, create['bare']!, 0.7));
  run.results['createCpu'] = [cpuRatio('CPU per request, bare / mock', create['mock']!, create['bare']!)];
  run.groups.push(group('POST /v1/pets', create));
  await Promise.all([bare.stop(), mock.stop()]);
}

/** The list with 1,000 and with 1,000,000 stored pets (O(limit) paging), and the RSS of each after a GC. */
async function sizeScenario(run: Run): Promise<void> {
  log('\nGET list with 1,000 vs 1,000,000 stored pets');
  const small = run.own(await forkTarget('mock-1k', 'mock-server', ['1000']));
  const big = run.own(await forkTarget('mock-1M', 'mock-server', ['1000000']));
  const smallRss = await small.rss();
  const bigRss = await big.rss();
  log(`  RSS after GC: 1,000 pets ${fmt(smallRss / 2 ** 20)} MiB, 1,000,000 pets ${fmt(bigRss / 2 ** 20)} MiB`);
  const sizes = await compare([small, big], (target) => ({ url: `${target.base}${LIST_PATH}`, headers: AUTH }));
  run.results['storeSize'] = { ...sizes, rssBytes: { 'mock-1k': smallRss, 'mock-1M': bigRss } };
  run.targets.push(ratioTarget('list: 1,000,000 pets / 1,000 pets', sizes['mock-1M']!, sizes['mock-1k']!, 0.9));
  run.targets.push({ name: 'memory: RSS with 1,000,000 pets', value: round(bigRss / 2 ** 20, 1), unit: 'MiB', goal: '<= 300', pass: bigRss / 2 ** 20 <= 300 });
  run.groups.push(group('GET list by store size', sizes));
  await Promise.all([small.stop(), big.stop()]);
}

/** From `npm start` (and from `node dist/mock/cli.js`) to the first 200, interleaved, median of several starts. */
async function startupScenario(run: Run): Promise<void> {
  log('\nStart-up to the first 200');
  const viaNode: number[] = [];
  const viaNpm: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    viaNode.push(await startup(process.execPath, (port) => ['dist/mock/cli.js', '--port', String(port)]));
    viaNpm.push(await startup('npm', (port) => ['start', '--silent', '--', '--port', String(port)]));
  }
  run.results['startup'] = { nodeMs: viaNode.map((ms) => round(ms, 0)), npmStartMs: viaNpm.map((ms) => round(ms, 0)) };
  log(`  node dist/mock/cli.js: median ${fmt(middle(viaNode))} ms; npm start: median ${fmt(middle(viaNpm))} ms`);
  run.targets.push({ name: 'start-up: npm start to first 200', value: round(middle(viaNpm), 0), unit: 'ms', goal: '< 1000', pass: middle(viaNpm) < 1000 });
}

const SCENARIOS = { list: listScenario, create: createScenario, size: sizeScenario, startup: startupScenario };

async function main(): Promise<void> {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
  const children: Target[] = [];
  const run: Run = { targets: [], groups: [], results: {}, own: (target) => (children.push(target), target) };
  const loadBefore = loadavg();
  log(`Benchmark (${QUICK ? 'quick' : 'full'}): ${ROUNDS} round(s) x ${SECONDS} s, 50 connections; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
  try {
    for (const [name, scenario] of Object.entries(SCENARIOS)) if (only === undefined || only.includes(name)) await scenario(run);
  } finally {
    for (const child of children) await child.stop();
  }

  log('\nTargets');
  for (const t of run.targets) {
    const rounds = t.rounds === undefined ? '' : `  rounds ${t.rounds.join(' ')}`;
    log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name.padEnd(36)} ${String(t.value).padStart(8)} ${t.unit.padEnd(5)} (goal ${t.goal})${rounds}`);
  }

  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: round(totalmem() / 2 ** 30, 1), node: process.version };
  const loadAverage = { before: loadBefore, after: loadavg() };
  const report = { date: new Date().toISOString(), quick: QUICK, rounds: ROUNDS, seconds: SECONDS, connections: 50, machine, loadAverage, results: run.results, targets: run.targets };
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const title = `Pet Store mock vs node:http floor vs Prism 5.14.2 (${machine.cpus} cores, ${machine.node}, ${report.date.slice(0, 10)})`;
  writeFileSync(join(ROOT, 'bench', 'results.svg'), barChart(title, run.groups));
  log('\nWrote bench/results.json and bench/results.svg');
  if (run.targets.some((t) => !t.pass)) process.exitCode = 1;
}

function group(title: string, summaries: Record<string, Summary>): Group {
  return { title, bars: Object.entries(summaries).map(([label, s]) => ({ label, value: s.requestsPerSecond, caption: `(p99 ${s.p99Ms} ms)` })) };
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

await main();
