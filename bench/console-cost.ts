import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEFAULT_API_KEY, startMock } from '../mock/index.js';
import { cpuSeconds, stopChild } from './children.js';
import { measure, type Measured } from './autocannon-load.js';

/**
 * `npm run bench:console`: the mock's throughput with the console open (README › Console) against the same mock
 * with no console, in one run. Two identical mocks run in child processes and are loaded at the same time
 * (autocannon, 25 connections each, list then create); each round a headless Chromium (Debian's, `CHROMIUM_PATH`)
 * is signed in on the Requests view of one of them (the other the next round), its journal stream receiving every
 * batch and its records page polled. The ratio of the pair, median over rounds, is the figure. Target (README ›
 * Console): open ≥ 0.9 × closed. Prints PASS/FAIL, appends a section to bench/RESULTS.md (not with `--quick`),
 * exits 1 when a target fails.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 2 : 8;
const SECONDS = QUICK ? 2 : 4;
const TOKEN = 'bench-console-admin';
const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const LIST_PATH = '/pets?limit=20&status=available';
const POST = { method: 'POST' as const, headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}' };

async function serve(): Promise<void> {
  const mock = await startMock({ port: 0, maxPets: 20_000_000, apiKeys: [DEFAULT_API_KEY], adminToken: TOKEN });
  process.send?.({ origin: mock.origin });
}

async function openConsole(browser: Browser, origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/__admin/`);
  await page.locator('#token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#live.on').waitFor();
  await page.getByRole('tab', { name: /Requests/ }).click();
  return page;
}

async function startChild(): Promise<{ origin: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code} before listening`)));
    child.on('message', (message: { origin?: string }) => message.origin !== undefined && resolve(message.origin));
  });
  return { origin, child };
}

async function main(): Promise<void> {
  // Two identical mocks loaded at the same time, the console open on one of them (each round the other): both share
  // whatever else the machine runs at that moment, so the pair's ratio cancels the drift of a shared machine.
  const mocks = [await startChild(), await startChild()];
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const before = loadavg();
  log(`Console open vs closed: ${ROUNDS} round(s) x ${SECONDS} s, two mocks under load at once (25 connections each); load average ${before.map((l) => l.toFixed(2)).join(' ')}`);
  const results: { name: string; closed: Measured[]; open: Measured[]; seen: number[] }[] = [];
  try {
    for (const [name, load] of [
      ['list', (origin: string) => ({ url: `${origin}/v1${LIST_PATH}`, headers: AUTH })],
      ['create', (origin: string) => ({ url: `${origin}/v1/pets`, ...POST })],
    ] as const) {
      await Promise.all(mocks.map((mock) => measure({ ...load(mock.origin), duration: 1, connections: 25 })));
      const row = { name, closed: [] as Measured[], open: [] as Measured[], seen: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const watched = mocks[round % 2]!;
        const page = await openConsole(browser, watched.origin);
        const cpu = mocks.map((mock) => cpuSeconds(mock.child.pid));
        const measured = await Promise.all(mocks.map((mock) => measure({ ...load(mock.origin), duration: SECONDS, connections: 25 })));
        mocks.forEach((mock, i) => (measured[i]!.cpuMicrosPerRequest = Math.round((1e7 * (cpuSeconds(mock.child.pid) - cpu[i]!)) / Math.max(1, measured[i]!.total)) / 10));
        // How many entries the page received: the stream really ran during the round.
        row.seen.push(Number(await page.locator('#requests').getAttribute('data-received')));
        await page.context().close();
        const open = measured[round % 2]!;
        const closed = measured[(round + 1) % 2]!;
        row.open.push(open);
        row.closed.push(closed);
        for (const [mode, m] of [['open', open], ['closed', closed]] as const) {
          log(`  ${name} round ${round + 1} console ${mode.padEnd(6)} ${fmt(m.requestsPerSecond)} req/s  p99 ${m.p99Ms} ms  ${m.cpuMicrosPerRequest} us CPU/request  failures ${m.failures}`);
        }
      }
      results.push(row);
    }
  } finally {
    await browser.close();
    await Promise.all(mocks.map((mock) => stopChild(mock.child)));
  }
  const targets = results.map((row) => ({ name: `${row.name}: console open / closed`, value: median(row.open.map((m, i) => m.requestsPerSecond / row.closed[i]!.requestsPerSecond)), goal: 0.9 }));
  const section = [
    '',
    `## Console open vs closed (\`npm run bench:console\`${QUICK ? ' --quick' : ''})`,
    '',
    `${new Date().toISOString().slice(0, 10)}, this machine (${cpus().length} cores, Node ${process.version.slice(1)}, headless Chromium on the same machine), load average before ${before.map((l) => l.toFixed(2)).join(' ')}. The machine is shared with other engineers' test runs: figures are noisy. Two identical mocks are loaded at the same time, so each round's ratio compares them under the same background load.`,
    `Medians of ${ROUNDS} rounds of ${SECONDS} s, 25 connections on each mock. Open: a signed-in console on the Requests view of one mock (the other each round), its journal stream live (batches every 100 ms, at most 25 entries each) and its records page polled every 3 s.`,
    '',
    '| operation | console closed (req/s) | console open (req/s) | open / closed (median of rounds) | CPU per request, closed / open (us) | entries the page received per round |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (row, i) =>
        `| ${row.name} | ${fmt(median(row.closed.map((m) => m.requestsPerSecond)))} | ${fmt(median(row.open.map((m) => m.requestsPerSecond)))} | ${targets[i]!.value.toFixed(3)} | ${median(row.closed.map((m) => m.cpuMicrosPerRequest ?? 0)).toFixed(1)} / ${median(row.open.map((m) => m.cpuMicrosPerRequest ?? 0)).toFixed(1)} | ${row.seen.join(', ')} |`,
    ),
    '',
    ...targets.map((target) => `- ${target.name}: ${target.value.toFixed(3)} (goal ≥ ${target.goal}): **${target.value >= target.goal ? 'PASS' : 'FAIL'}**`),
    '',
  ];
  if (!QUICK) appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section.join('\n'));
  log(section.join('\n'));
  if (targets.some((target) => target.value < target.goal)) process.exitCode = 1;
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
  await serve();
  process.on('disconnect', () => process.exit(0));
} else {
  await main();
}
