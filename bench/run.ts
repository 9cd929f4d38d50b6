import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { barChart, type Group } from './chart.js';
import { firstOk, forkTarget, freePort, startPrism, stopChild, type Target } from './children.js';
import { measure, type Load, type Measured } from './load.js';

/**
 * `npm run bench` (issue 6): the mock against the floor of Node's HTTP stack and against Prism, on this
 * machine, load generator (autocannon, 50 connections) in this process, each server in its own child.
 * Rounds are interleaved (bare, mock, prism, bare, mock, ...) so the machine's drift cancels; the median
 * round per server is reported. `--quick` (or `BENCH_QUICK=1`) runs one short round for a smoke test.
 * Writes `bench/results.json` and `bench/results.svg`; exits 1 when a target fails.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const QUICK = process.argv.includes('--quick') || process.env['BENCH_QUICK'] === '1';
const ROUNDS = QUICK ? 1 : 3;
const SECONDS = QUICK ? 2 : 10;
const WARMUP_SECONDS = QUICK ? 1 : 3;
const STARTS = QUICK ? 2 : 5;

const KEY = 'petstore-dev-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const LIST_PATH = '/pets?limit=20&status=available';
/** A `NewPet` whose int64 `categoryId` is 2^63-1: exact only with the mock's lossless parse. */
const NEW_PET = '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}';
const POST = { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: NEW_PET } as const;

type Summary = Measured & { rounds: Measured[] };
/** One target of issue 6 and whether this run met it. */
interface Goal {
  name: string;
  value: number;
  unit: string;
  goal: string;
  pass: boolean;
}

/** Runs `rounds` interleaved rounds of the same load against each target; returns the median round of each. */
async function compare(targets: Target[], load: (target: Target) => Omit<Load, 'duration'>): Promise<Record<string, Summary>> {
  for (const target of targets) await measure({ ...load(target), duration: WARMUP_SECONDS });
  const rounds: Record<string, Measured[]> = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const measured = await measure({ ...load(target), duration: SECONDS });
      rounds[target.name]!.push(measured);
      log(`  round ${round + 1} ${target.name.padEnd(10)} ${fmt(measured.requestsPerSecond)} req/s  p99 ${measured.p99Ms} ms  failures ${measured.failures}${measured.failures > 0 ? ` ${JSON.stringify(measured.statusCodes)}` : ''}`);
    }
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, list]) => [name, { ...median(list), rounds: list }]));
}

function median(list: Measured[]): Measured {
  const middle = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    requestsPerSecond: middle(list.map((m) => m.requestsPerSecond)),
    p99Ms: middle(list.map((m) => m.p99Ms)),
    failures: list.reduce((sum, m) => sum + m.failures, 0),
    total: list.reduce((sum, m) => sum + m.total, 0),
    statusCodes: {},
  };
}

/** Median milliseconds from spawning `command` until `GET /v1/pets` with the key first answers 200. */
async function startup(command: string, args: (port: number) => string[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(command, args(port), { cwd: ROOT, stdio: 'ignore', detached: true });
    await firstOk(`http://127.0.0.1:${port}/v1/pets`, AUTH, 30_000);
    times.push(performance.now() - started);
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await stopChild(child);
  }
  return times;
}

function ratioTarget(name: string, value: number, minimum: number): Goal {
  return { name, value: round(value, 3), unit: 'ratio', goal: `>= ${minimum}`, pass: value >= minimum };
}

async function main(): Promise<void> {
  const targets: Goal[] = [];
  const groups: Group[] = [];
  const results: Record<string, unknown> = {};
  const children: Target[] = [];
  const own = <T extends Target>(target: T): T => (children.push(target), target);

  try {
    log(`Benchmark (${QUICK ? 'quick' : 'full'}): ${ROUNDS} round(s) x ${SECONDS} s, 50 connections`);

    // 1. List: auth, query validation, filter.
    log(`\nGET /v1${LIST_PATH}`);
    const bare = own(await forkTarget('bare', 'bare-server', [KEY]));
    const mock = own(await forkTarget('mock', 'mock-server', ['1000']));
    const prism = own(await startPrism(LIST_PATH, AUTH));
    const list = await compare([bare, mock, prism], (target) => ({ url: `${target.base}${LIST_PATH}`, headers: AUTH }));
    results['list'] = list;
    targets.push(ratioTarget('list: mock / bare node:http', list['mock']!.requestsPerSecond / list['bare']!.requestsPerSecond, 0.8));
    targets.push(ratioTarget('list: mock / prism', list['mock']!.requestsPerSecond / list['prism']!.requestsPerSecond, 10));
    groups.push(group('GET /v1/pets?limit=20&status=available', list));
    await prism.stop();

    // 2. Create: auth, body validation, int64-exact parse, store.
    log('\nPOST /v1/pets');
    const fresh = own(await forkTarget('mock', 'mock-server', ['0']));
    const create = await compare([bare, fresh], (target) => ({ url: `${target.base}/pets`, ...POST }));
    results['create'] = create;
    targets.push(ratioTarget('create: mock / bare JSON server', create['mock']!.requestsPerSecond / create['bare']!.requestsPerSecond, 0.7));
    groups.push(group('POST /v1/pets', create));
    await fresh.stop();
    await bare.stop();

    // 3. Store size: a filtered page is found in O(limit); memory of 1,000,000 pets.
    log('\nGET list with 1,000 vs 1,000,000 stored pets');
    const big = own(await forkTarget('mock-1M', 'mock-server', ['1000000']));
    const bigRss = await big.rss();
    const smallRss = await mock.rss();
    mock.name = 'mock-1k';
    const sizes = await compare([mock, big], (target) => ({ url: `${target.base}${LIST_PATH}`, headers: AUTH }));
    results['storeSize'] = { ...sizes, rssBytes: { 'mock-1k': smallRss, 'mock-1M': bigRss } };
    targets.push(ratioTarget('list: 1,000,000 pets / 1,000 pets', sizes['mock-1M']!.requestsPerSecond / sizes['mock-1k']!.requestsPerSecond, 0.9));
    targets.push({ name: 'memory: RSS with 1,000,000 pets', value: round(bigRss / 2 ** 20, 1), unit: 'MiB', goal: '<= 300', pass: bigRss / 2 ** 20 <= 300 });
    groups.push(group('GET list by store size', sizes));
    log(`  RSS after GC: 1,000 pets ${fmt(smallRss / 2 ** 20)} MiB, 1,000,000 pets ${fmt(bigRss / 2 ** 20)} MiB`);
    await big.stop();
    await mock.stop();

    // 4. Start-up: from `npm start` (and from `node dist/mock/cli.js`) to the first 200.
    log('\nStart-up to the first 200');
    const viaNode = await startup(process.execPath, (port) => ['dist/mock/cli.js', '--port', String(port)]);
    const viaNpm = await startup('npm', (port) => ['start', '--silent', '--', '--port', String(port)]);
    const mid = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    results['startup'] = { nodeMs: viaNode.map((ms) => round(ms, 0)), npmStartMs: viaNpm.map((ms) => round(ms, 0)) };
    log(`  node dist/mock/cli.js: median ${fmt(mid(viaNode))} ms; npm start: median ${fmt(mid(viaNpm))} ms`);
    targets.push({ name: 'start-up: npm start to first 200', value: round(mid(viaNpm), 0), unit: 'ms', goal: '< 1000', pass: mid(viaNpm) < 1000 });
  } finally {
    for (const child of children) await child.stop();
  }

  log('\nTargets');
  for (const t of targets) log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name.padEnd(36)} ${String(t.value).padStart(8)} ${t.unit.padEnd(5)} (goal ${t.goal})`);

  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: round(totalmem() / 2 ** 30, 1), node: process.version };
  const report = { date: new Date().toISOString(), quick: QUICK, rounds: ROUNDS, seconds: SECONDS, connections: 50, machine, results, targets };
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const title = `Pet Store mock vs node:http floor vs Prism 5.14.2 (${machine.cpus} cores, ${machine.node}, ${report.date.slice(0, 10)})`;
  writeFileSync(join(ROOT, 'bench', 'results.svg'), barChart(title, groups));
  log('\nWrote bench/results.json and bench/results.svg');
  if (targets.some((t) => !t.pass)) process.exitCode = 1;
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
