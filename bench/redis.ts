import { fork } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModel } from '../model/loader.js';
import { DEFAULT_API_KEY, startMock } from '../mock/index.js';
import type { RecordValue } from '../mock/store/record-store.js';
import { RedisBackend } from '../mock/store/redis-dataset.js';
import { startRedis } from '../test/redis/redis-server.js';
import { cpuSeconds, stopChild, type Target } from './children.js';
import { measure, type Measured } from './autocannon-load.js';

/**
 * `npm run bench:redis`: list and create throughput of the mock on the Redis store against the same mock on the
 * in-memory store, in one run, at 10,000 and 1,000,000 stored pets (autocannon, 50 connections, interleaved
 * rounds, each mock in its own child process, one redis-server started for the run). Targets (README › Several
 * replicas): list on Redis ≥ 0.3× the memory store at each size, and flat: the Redis list at 1,000,000 ≥ 0.8×
 * at 10,000. Prints PASS/FAIL, appends a section to bench/RESULTS.md, exits 1 when a target fails.
 *
 * Child mode (`redis.js serve memory|redis N [url]`): starts a mock holding N pets and reports `{ port }`; the
 * Redis pets are written by pipelined load scripts of 5,000 pets each, the memory ones by `store.create`.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 1 : 5;
const SECONDS = QUICK ? 2 : 3;
const SIZES = QUICK ? [10_000, 100_000] : [10_000, 1_000_000];
const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const LIST_PATH = '/pets?limit=20&status=available';
const POST = { method: 'POST' as const, headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}' };
const STATUSES = ['available', 'pending', 'sold'] as const;

/** The pets a benchmark mock holds: ids 1..n, statuses cycling, so a filtered page exists at any size. */
function pet(i: number): RecordValue {
  return { id: BigInt(i + 1), name: `pet-${i + 1}`, categoryId: BigInt(i % 50), status: STATUSES[i % 3] };
}

async function serve(kind: string, size: number, url: string | undefined): Promise<void> {
  if (kind === 'memory') {
    const mock = await startMock({ port: 0, pets: [], maxPets: 20_000_000, apiKeys: [DEFAULT_API_KEY] });
    for (let i = 0; i < size; i++) mock.store.create({ name: `pet-${i + 1}`, categoryId: BigInt(i % 50), status: STATUSES[i % 3] });
    process.send?.({ port: new URL(mock.origin).port });
    return;
  }
  const api = await loadModel();
  const prefix = `bench-${size}`;
  // A loader with a long timeout: each load script writes 5,000 pets, more than a request's 2 s budget allows in all.
  const loader = await RedisBackend.connect(api, { url: url!, prefix, timeoutMs: 600_000 });
  const store = loader.dataset(api, undefined, new Map(), 20_000_000).get(api.resources[0]!.name)!;
  await store.load([]);
  const chunk = 50_000;
  for (let at = 0; at < size; at += chunk) await store.append(Array.from({ length: Math.min(chunk, size - at) }, (_, i) => pet(at + i)));
  await loader.close();
  const mock = await startMock({ port: 0, maxPets: 20_000_000, apiKeys: [DEFAULT_API_KEY], data: new Map(), store: { url: url!, prefix } });
  process.send?.({ port: new URL(mock.origin).port });
}

async function child(name: string, args: string[]): Promise<Target> {
  const forked = fork(fileURLToPath(import.meta.url), ['serve', ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<string>((resolve, reject) => {
    forked.once('exit', (code) => reject(new Error(`${name}: exited with ${code} before listening`)));
    forked.on('message', (message: { port?: string }) => message.port !== undefined && resolve(message.port));
  });
  return { name, base: `http://127.0.0.1:${port}/v1`, child: forked, rss: async () => 0, stop: () => stopChild(forked) };
}

/** Interleaved rounds of one load against each target (a warm-up first); every round of each. */
async function rounds(targets: Target[], load: (target: Target) => { url: string; method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<Map<string, Measured[]>> {
  for (const target of targets) await measure({ ...load(target), duration: 1 });
  const out = new Map(targets.map((target) => [target.name, [] as Measured[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const cpu = cpuSeconds(target.child.pid);
      const measured = await measure({ ...load(target), duration: SECONDS });
      measured.cpuMicrosPerRequest = Math.round((1e7 * (cpuSeconds(target.child.pid) - cpu)) / Math.max(1, measured.total)) / 10;
      out.get(target.name)!.push(measured);
      log(`  round ${round + 1} ${target.name.padEnd(14)} ${fmt(measured.requestsPerSecond)} req/s  p99 ${measured.p99Ms} ms  failures ${measured.failures}${measured.failures > 0 ? ` ${JSON.stringify(measured.statusCodes)}` : ''}`);
    }
  }
  return out;
}

/** Median of the per-round ratios `a[i] / b[i]` (paired rounds cancel the machine's drift). */
function ratio(a: Measured[], b: Measured[]): number {
  return median(a.map((m, i) => m.requestsPerSecond / b[i]!.requestsPerSecond));
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const lines: string[] = [];
  const targets: { name: string; value: number; goal: number }[] = [];
  const listRedis = new Map<number, Measured[]>();
  const before = loadavg();
  log(`Redis store vs memory store: ${ROUNDS} round(s) x ${SECONDS} s, 50 connections, sizes ${SIZES.map(fmt).join(' and ')}; load average ${before.map((l) => l.toFixed(2)).join(' ')}`);
  try {
    for (const size of SIZES) {
      const memory = await child(`memory-${size}`, ['memory', String(size)]);
      const onRedis = await child(`redis-${size}`, ['redis', String(size), redis.url]);
      log(`\nGET /v1${LIST_PATH} with ${fmt(size)} pets`);
      const list = await rounds([memory, onRedis], (target) => ({ url: `${target.base}${LIST_PATH}`, headers: AUTH }));
      log(`POST /v1/pets with ${fmt(size)} pets`);
      const create = await rounds([memory, onRedis], (target) => ({ url: `${target.base}/pets`, ...POST }));
      await Promise.all([memory.stop(), onRedis.stop()]);
      const [listMemory, listOnRedis, createMemory, createOnRedis] = [list.get(memory.name)!, list.get(onRedis.name)!, create.get(memory.name)!, create.get(onRedis.name)!];
      listRedis.set(size, listOnRedis);
      targets.push({ name: `list at ${fmt(size)}: redis / memory`, value: ratio(listOnRedis, listMemory), goal: 0.3 });
      lines.push(
        `| ${fmt(size)} | ${fmt(medianRps(listMemory))} | ${fmt(medianRps(listOnRedis))} | ${ratio(listOnRedis, listMemory).toFixed(2)} | ${fmt(medianRps(createMemory))} | ${fmt(medianRps(createOnRedis))} | ${ratio(createOnRedis, createMemory).toFixed(2)} |`,
      );
    }
    const [small, large] = SIZES.map((size) => listRedis.get(size)!);
    targets.push({ name: `redis list: ${fmt(SIZES[1]!)} / ${fmt(SIZES[0]!)} pets`, value: ratio(large!, small!), goal: 0.8 });
  } finally {
    await redis.dispose();
  }
  log('\nTargets');
  for (const target of targets) log(`  ${target.value >= target.goal ? 'PASS' : 'FAIL'}  ${target.name.padEnd(34)} ${target.value.toFixed(3)} (goal >= ${target.goal})`);
  const section = [
    '',
    `## Redis store vs memory store (\`npm run bench:redis\`${QUICK ? ' --quick' : ''})`,
    '',
    `${new Date().toISOString().slice(0, 10)}, this machine (${cpus().length} cores, Node ${process.version.slice(1)}, redis-server on the same machine), load average before ${before.map((l) => l.toFixed(2)).join(' ')}.`,
    `Medians of ${ROUNDS} interleaved rounds of ${SECONDS} s at 50 connections; ratios are medians of the paired rounds. List: \`GET /v1${LIST_PATH}\`; create: \`POST /v1/pets\`.`,
    '',
    '| pets stored | list, memory (req/s) | list, Redis | Redis / memory | create, memory | create, Redis | Redis / memory |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    '',
    ...targets.map((target) => `- ${target.name}: ${target.value.toFixed(2)} (goal ≥ ${target.goal}): **${target.value >= target.goal ? 'PASS' : 'FAIL'}**`),
    '',
  ];
  if (!QUICK) appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section.join('\n'));
  log(section.join('\n'));
  if (targets.some((target) => target.value < target.goal)) process.exitCode = 1;
}

function medianRps(list: Measured[]): number {
  return median(list.map((m) => m.requestsPerSecond));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]!, Number(process.argv[4]), process.argv[5]);
  process.on('disconnect', () => process.exit(0));
} else {
  await main();
}
