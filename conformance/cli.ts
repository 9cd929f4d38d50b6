#!/usr/bin/env node
import { appendFileSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OpenAPIV3_1 } from 'openapi-types';
import { toHar } from '../judge/har.js';
import type { Exchange } from '../judge/verdict.js';
import { readSpecDocument } from '../model/document.js';
import { PACKAGE_VERSION, SPEC_PATH } from '../model/loader.js';
import { adoptLegacyEnvironment, COMMANDS, envName } from '../cli/product.js';
import { applyConfigFile, overlayOption, overlaysOf } from '../cli/config.js';
import { OverlayError } from '../model/overlay.js';
import { validCredentials } from './arbitraries/credentials.js';
import { checksFor } from './catalogue.js';
import { ClientState, send, TargetRefusing } from './client.js';
import { modelOf } from './contract.js';
import { watchHeapOnTimer } from '../model/heap.js';
import { colours } from './report/colours.js';
import { checkLines, closingLines, reachLines } from './report/text.js';
import { reachOf, type RunReach } from './report/reach.js';
import { renderHtml, renderMarkdown, type RunReport } from './report/html.js';
import { renderJunit } from './report/junit.js';
import { coverage } from './report/coverage.js';
import { progressLine } from './report/progress.js';
import { RUN_BUDGET_REASON, runSuite, type SuiteResult } from './run-suite.js';
import { exitCodeOf, mergeResults, parseShard, readResults, shardIds, writeResults, type Shard } from './shard.js';
import type { SummaryRecord } from './report/results.js';
import { parseHeaders, resolveTarget, type Target, type TargetTls } from './target.js';
import { freshDispatcherFor } from './transport/dispatcher.js';

/**
 * `npm run conformance -- --base-url URL --api-key KEY` / `openapi-harness test`: runs the conformance suite of an
 * OpenAPI spec (default the shipped Pet Store Animals interface) against any implementation of it, in this process
 * (conformance/run-suite.ts › runSuite), and writes what was asked for: the console report, JUnit, HTML, HAR, a GitHub
 * step summary. Exit codes: 0 the target conforms; 1 violations a check found (each with a report); 2 no verdict:
 * bad usage, target unreachable, a certificate problem, the target kept refusing (429/503), a check not run for
 * an error of the suite itself (it could not be built, it threw, it ran past --check-timeout), or `--run-budget`
 * was spent before any check ended. A run its budget cut short exits on the checks that ended, the rest reported
 * as not run.
 */
const EXIT_USAGE = 2;
/** Most exchanges `--har-all` keeps: a HAR file stays small enough for devtools. */
const HAR_ALL_CAP = 1000;
const colour = colours(process.stderr);

adoptLegacyEnvironment();
const program = new Command(COMMANDS.test)
  .description('Checks an implementation of an OpenAPI interface (default: the Pet Store Animals interface, spec/openapi.yaml) against its spec, by property-based tests.')
  .argument('[spec]', 'the OpenAPI description, as --spec')
  .addOption(new Option('--base-url <url>', "base address of the target, ending with the spec's base path (/v1 for the shipped spec; a gateway prefix before it is fine)").env(envName('BASE_URL')))
  .addOption(new Option('--target <name>', 'take the base address from the spec servers instead').choices(['production', 'staging', 'mock']))
  .addOption(new Option('--api-key <key>', "a key the target accepts in the spec's security scheme (the shipped spec: \"Authorization: Bearer <key>\")").env(envName('API_KEY')))
  .addOption(new Option('--read-only', 'never create anything (checks that must write are skipped, with the reason)').default(false))
  .addOption(new Option('--strict', "hold the target to the schema as written where the spec leaves a gap (and to rules stated only in descriptions)").default(false))
  .addOption(new Option('--runs <n>', 'fast-check runs per property').default(50).argParser(positive))
  .addOption(new Option('--seed <n>', 'fast-check seed, to replay a printed failure').argParser(integer))
  .addOption(new Option('--path <path>', 'fast-check path of a printed counterexample (with --seed and one --check)'))
  .addOption(new Option('--spec <file>', 'the OpenAPI document the target implements (the checks are derived from it)').default(SPEC_PATH, 'spec/openapi.yaml, the Pet Store Animals interface').env(envName('SPEC')))
  .addOption(overlayOption())
  .addOption(new Option('--check <id...>', 'run only these checks (ids derive from the spec\'s operationIds, e.g. listPets.status-filter, auth.getPet; an unknown id lists them all)'))
  .addOption(new Option('--time-budget <seconds>', 'most seconds one property may run before it stops early').argParser(positive))
  .addOption(new Option('--header <name:value...>', "a header of your own sent with every request (repeatable), for a target whose description leaves out the authentication it wants: --header 'Authorization: token abc'").env(envName('HEADER')))
  .addOption(new Option('--run-budget <seconds>', 'most seconds the whole run may take: no check starts once it is spent (those are reported as not run), and a running check stops its properties early').argParser(positive).env(envName('RUN_BUDGET')))
  .addOption(new Option('--check-timeout <seconds>', 'most seconds one check may take; a check over it is not run, an error of the suite (exit 2), and the run goes on').default(600).argParser(positive).env(envName('CHECK_TIMEOUT')))
  .addOption(new Option('--shard <i/n>', 'run the i-th of n parts of the catalogue (split by check id, the same on every machine); merge the parts with --merge-reports').argParser(shardOption).env(envName('SHARD')))
  .addOption(new Option('--results <file>', 'write the results as JSON, for --merge-reports'))
  .addOption(new Option('--merge-reports <file...>', 'merge the results files of shards (--results) into one report (--junit, --html, the step summary) and one verdict; no target needed'))
  .addOption(new Option('--verbose', 'print the stack of an error of the suite').default(false))
  .addOption(new Option('--max-rps <n>', 'most requests per second sent to the target (all in flight together)').argParser(positive))
  .addOption(new Option('--concurrency <n>', 'requests in flight at once; same verdicts and seed replay as 1').default(1).argParser(positiveInteger))
  .addOption(new Option('--consistency-window <ms>', 'how long a written record may stay invisible to reads (0: strict)').default(0).argParser(nonNegative).env(envName('CONSISTENCY_WINDOW')))
  .addOption(new Option('--ca <file>', 'PEM file of a CA to trust besides the system ones (private staging CA)'))
  .addOption(new Option('--cert <file>', 'PEM client certificate (mutual TLS), with --key'))
  .addOption(new Option('--key <file>', 'PEM private key of --cert'))
  .addOption(new Option('--insecure', 'accept any server certificate (never for production; warns)').default(false))
  .addOption(new Option('--html <file>', 'write a self-contained HTML report'))
  .addOption(new Option('--har <file>', 'write the failing exchanges as HAR 1.2'))
  .addOption(new Option('--har-all', 'with --har: every exchange too (the first 1,000), not only the failing ones').default(false))
  .addOption(new Option('--junit <file>', 'write JUnit XML'))
  .addOption(new Option('--reporter <name>', 'console, or junit (with --output)').choices(['console', 'junit']).default('console'))
  .addOption(new Option('--output <file>', 'where the junit reporter writes its XML'))
  .addOption(new Option('--from-har <file>', 'judge the exchanges of a HAR file (devtools, openapi-harness proxy --record, any recorder) instead of sending requests: every exchange and the sequence rules; no target needed'))
  .addHelpText('after', '\nHTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured. With GITHUB_STEP_SUMMARY set, a markdown summary is appended to it.\nColours only on a terminal; NO_COLOR and FORCE_COLOR are honoured.')
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE))
  .showHelpAfterError();

interface CliOptions {
  baseUrl?: string;
  target?: 'production' | 'staging' | 'mock';
  apiKey?: string;
  readOnly: boolean;
  strict: boolean;
  runs: number;
  seed?: number;
  path?: string;
  check?: string[];
  spec: string;
  overlay: string[] | string;
  timeBudget?: number;
  runBudget?: number;
  maxRps?: number;
  header?: string[] | string;
  concurrency: number;
  consistencyWindow: number;
  ca?: string;
  cert?: string;
  key?: string;
  insecure: boolean;
  html?: string;
  har?: string;
  harAll: boolean;
  junit?: string;
  reporter: 'console' | 'junit';
  output?: string;
  fromHar?: string;
  checkTimeout: number;
  shard?: Shard;
  results?: string;
  mergeReports?: string[];
  verbose: boolean;
}

program.parse();
applyConfigFile(program, 'test', EXIT_USAGE);
const options = program.opts<CliOptions>();
if (options.fromHar !== undefined) await fromHar(options.fromHar);
if (options.mergeReports !== undefined) await mergeReports(options.mergeReports);

const baseUrl = options.baseUrl ?? (options.target === undefined ? undefined : await serverUrl(options.target));
if (baseUrl === undefined) usage('give --base-url URL (or OPENAPI_HARNESS_BASE_URL), or --target staging');
if (!/^https?:\/\/[^/]/.test(baseUrl)) usage(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
const overlays = overlaysOf(options.overlay);
const model = await modelOf(options.spec, overlays).catch((error: unknown) => usage(error instanceof OverlayError ? error.message : `cannot load the spec ${options.spec}: ${(error as Error).message}`));
const secured = model.operations.some((op) => op.security.length > 0);
if (secured && (options.apiKey === undefined || options.apiKey === '')) usage('give --api-key KEY (or OPENAPI_HARNESS_API_KEY): the spec asks for credentials');
const catalogue = checksFor(model);
const checkIds = catalogue.map((check) => check.id);
const unknown = (options.check ?? []).filter((id) => !checkIds.includes(id));
if (unknown.length > 0) usage(`unknown check ${unknown.join(', ')}; known: ${checkIds.join(', ')}`);
if (options.reporter === 'junit' && options.output === undefined && options.junit === undefined) usage('--reporter junit needs --output FILE');
if ((options.cert === undefined) !== (options.key === undefined)) usage('a client certificate needs both --cert FILE and --key FILE');
const junitFile = options.junit ?? (options.reporter === 'junit' ? options.output : undefined);
// The environment variable holds one header, or several on lines of their own.
const headerTexts = (Array.isArray(options.header) ? options.header : options.header === undefined ? [] : [options.header]).flatMap((text) => text.split(/\r?\n/)).filter((text) => text.trim() !== '');
let headers: Record<string, string> = {};
try {
  headers = parseHeaders(headerTexts);
} catch (error) {
  usage((error as Error).message);
}

const tls: TargetTls = {
  ...(options.ca === undefined ? {} : { ca: options.ca }),
  ...(options.cert === undefined ? {} : { cert: options.cert }),
  ...(options.key === undefined ? {} : { key: options.key }),
  ...(options.insecure ? { insecure: true } : {}),
};
const target: Target = {
  baseUrl: baseUrl.replace(/\/+$/, ''),
  apiKey: options.apiKey ?? '',
  spec: options.spec,
  ...(overlays.length === 0 ? {} : { overlays }),
  readOnly: options.readOnly,
  strict: options.strict,
  runs: options.runs,
  concurrency: options.concurrency,
  consistencyWindowMs: options.consistencyWindow,
  ...(options.seed === undefined ? {} : { seed: options.seed }),
  ...(options.path === undefined ? {} : { path: options.path }),
  ...(options.maxRps === undefined ? {} : { maxRps: options.maxRps }),
  ...(options.timeBudget === undefined ? {} : { timeBudgetMs: options.timeBudget * 1000 }),
  checkTimeoutMs: options.checkTimeout * 1000,
  ...(Object.keys(tls).length === 0 ? {} : { tls }),
  ...(Object.keys(headers).length === 0 ? {} : { headers }),
};
if (options.insecure) {
  process.stderr.write(colour.bold(colour.red(`${COMMANDS.test}: WARNING --insecure: the server certificate is NOT verified; anyone between you and the target can read the key and forge answers.\n`)));
}
try {
  // Reads the PEM files now, so that a wrong path is a usage error.
  await freshDispatcherFor(resolveTarget(target)).close();
} catch (error) {
  usage((error as Error).message);
}
await probe(target);

const out = colours(process.stdout);
process.stdout.write(`${COMMANDS.test}: ${model.title || 'API'} ${model.version} (${options.spec === SPEC_PATH ? 'the shipped spec' : options.spec}) against ${target.baseUrl}\n\n`);
const chosen = options.check ?? [];
// An empty OPENAPI_HARNESS_SHARD (a CI matrix without shards) leaves the option's raw text: the whole run.
if (typeof options.shard !== 'object') delete options.shard;
// A shard runs its part of the checks chosen (all by default), in catalogue order (D373).
const selected = options.shard === undefined ? chosen : shardIds(chosen.length === 0 ? checkIds : chosen, options.shard);
const shardText = options.shard === undefined ? undefined : `${options.shard.index}/${options.shard.count}`;
const progress = process.stderr.isTTY ? progressLine(process.stderr, selected.length === 0 ? checkIds.length : selected.length) : undefined;
// A shard with no check of its own (more shards than checks) runs none: an empty selection would mean every check.
// A long run's garbage is collected between checks, so the heap follows what is live (D522), and on a timer during
// a check, whose own garbage could otherwise pile up until it ends (D760).
const heapWatch = watchHeapOnTimer();
const result = options.shard !== undefined && selected.length === 0 ? { checks: [], summary: emptySummary(target.baseUrl), exchanges: [] } : await runSuite(model, target, {
  checks: selected,
  catalogue,
  keepExchanges: options.har !== undefined && options.harAll ? HAR_ALL_CAP : 0,
  ...(options.runBudget === undefined ? {} : { runBudgetMs: options.runBudget * 1000 }),
  onCheck: (record) => {
    process.stdout.write(checkLines(record, out, options.verbose));
    progress?.done(record);
    heapWatch.check();
  },
});
heapWatch.stop();
progress?.stop();
// Checks left out by --check are shown in the reach as not run, so a partial run does not read as a complete one.
const partial = selected.length > 0 || options.shard !== undefined;
const unselected = !partial ? [] : catalogue.filter((check) => !selected.includes(check.id)).map((check) => ({ type: 'check' as const, id: check.id, rule: check.rule, state: 'skipped' as const, durationMs: 0, advice: [], skipped: shardText !== undefined && (chosen.length === 0 || chosen.includes(check.id)) ? `in another shard (--shard ${shardText})` : 'not selected (--check)' }));
const reach = reachOf(model, result.summary.statuses, [...result.checks, ...unselected]);
process.stdout.write(reachLines(reach, out));
process.stdout.write(closingLines(result.checks, result.summary));
await writeReports(result, reach);
if (result.summary.refused !== undefined) {
  process.stderr.write(colour.red(`${COMMANDS.test}: ${result.summary.refused}\n`));
  await flushed();
  process.exit(EXIT_USAGE);
}
// A run whose budget was spent before any check reached a verdict says nothing of the target (D390).
const verdicts = result.checks.filter((check) => check.state !== 'skipped').length;
if (verdicts === 0 && result.checks.some((check) => check.skipped === RUN_BUDGET_REASON)) {
  process.stderr.write(colour.red(`${COMMANDS.test}: no verdict: the run's time budget (--run-budget ${options.runBudget ?? ''} s) was spent before any check ended\n`));
  await flushed();
  process.exit(EXIT_USAGE);
}
// A pipe takes the report asynchronously: exiting at once would cut a long report before its closing lines.
await flushed();
process.exit(exitCodeOf(result.checks));

/** Resolves once everything written to stdout and stderr so far has been handed to the system. */
async function flushed(): Promise<void> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
}

/** Writes the reports asked for (HTML, HAR, JUnit, GitHub step summary) from the run's results and its reach per operation. */
async function writeReports({ checks, summary, exchanges }: SuiteResult, reach: RunReach): Promise<void> {
  if (options.results !== undefined) writeResults(options.results, { spec: options.spec, baseUrl: target.baseUrl, ...(shardText === undefined ? {} : { shard: shardText }), finishedAt: new Date().toISOString(), checks, summary });
  if (junitFile !== undefined) writeFileSync(junitFile, renderJunit(`conformance of ${target.baseUrl}`, checks, reach));
  if (options.html === undefined && options.har === undefined && process.env['GITHUB_STEP_SUMMARY'] === undefined) return;
  const { operations, unmatched } = await coverage(options.spec, summary.statuses, overlays);
  const report: RunReport = { baseUrl: target.baseUrl, finishedAt: new Date().toISOString(), checks, summary, operations, unmatched, reach };
  if (options.html !== undefined) writeFileSync(options.html, renderHtml(report));
  if (options.har !== undefined) {
    const failing = checks.flatMap((check) => (check.exchange === undefined ? [] : [{ exchange: check.exchange, comment: `${check.id}: ${check.rule}` }]));
    writeFileSync(options.har, `${JSON.stringify(toHar(withEveryExchange(failing, exchanges), target.apiKey, PACKAGE_VERSION), null, 2)}\n`);
  }
  const stepSummary = process.env['GITHUB_STEP_SUMMARY'];
  if (stepSummary !== undefined && stepSummary !== '') appendFileSync(stepSummary, renderMarkdown(report));
}

/**
 * With `--har-all`, the run's exchanges in the order they were answered, each failing one carrying its check's
 * comment (a failing exchange beyond the kept ones is added at the end); otherwise the failing ones alone.
 */
function withEveryExchange(failing: { exchange: Exchange; comment: string }[], exchanges: readonly Exchange[]): { exchange: Exchange; comment?: string }[] {
  if (!options.harAll) return failing;
  const key = (exchange: Exchange): string => `${exchange.timing?.startedDateTime ?? ''} ${exchange.request.method} ${exchange.request.url}`;
  const comments = new Map(failing.map(({ exchange, comment }) => [key(exchange), comment]));
  const entries: { exchange: Exchange; comment?: string }[] = [];
  for (const exchange of exchanges) {
    const comment = comments.get(key(exchange));
    comments.delete(key(exchange));
    entries.push(comment === undefined ? { exchange } : { exchange, comment });
  }
  return [...entries, ...failing.filter(({ exchange }) => comments.has(key(exchange)))];
}

/**
 * `--merge-reports FILE…`: the results files of the shards of one run (`--shard i/n --results FILE`) as one run:
 * the console's closing lines, `--junit`, `--html` and the step summary from their checks, and the verdict's exit
 * code (0, 1, or 2 also when a check of the catalogue is in no file: a shard missing). No target is sent anything.
 */
async function mergeReports(files: string[]): Promise<never> {
  try {
    const read = files.map(readResults);
    const spec = read[0]?.spec ?? options.spec;
    const model = await modelOf(spec);
    const order = checksFor(model).map((check) => check.id);
    const merged = mergeResults(read, order);
    const ran = new Set(merged.checks.map((check) => check.id));
    const missing = checksFor(model).filter((check) => !ran.has(check.id));
    const absent = missing.map((check) => ({ type: 'check' as const, id: check.id, rule: check.rule, state: 'skipped' as const, durationMs: 0, advice: [], skipped: 'in no merged results file (a shard missing?)', error: { message: 'in no merged results file: a shard is missing' } }));
    const checks = [...merged.checks, ...absent];
    const reach = reachOf(model, merged.summary.statuses, checks);
    const junit = options.junit ?? (options.reporter === 'junit' ? options.output : undefined);
    if (junit !== undefined) writeFileSync(junit, renderJunit(`conformance of ${merged.baseUrl}`, checks, reach));
    if (options.html !== undefined || process.env['GITHUB_STEP_SUMMARY'] !== undefined) {
      const { operations, unmatched } = await coverage(spec, merged.summary.statuses);
      const report: RunReport = { baseUrl: merged.baseUrl, finishedAt: new Date().toISOString(), checks, summary: merged.summary, operations, unmatched, reach };
      if (options.html !== undefined) writeFileSync(options.html, renderHtml(report));
      const stepSummary = process.env['GITHUB_STEP_SUMMARY'];
      if (stepSummary !== undefined && stepSummary !== '') appendFileSync(stepSummary, renderMarkdown(report));
    }
    process.stdout.write(`${COMMANDS.test}: ${files.length} results files of ${spec} merged: ${merged.checks.length} checks${missing.length === 0 ? '' : `, ${missing.length} in none of them`}\n`);
    process.stdout.write(closingLines(checks, merged.summary));
    await flushed();
    process.exit(merged.summary.refused !== undefined ? EXIT_USAGE : exitCodeOf(checks));
  } catch (error) {
    return usage((error as Error).message);
  }
}

/** The figures of a run that sent nothing (a shard with no check of its own). */
function emptySummary(baseUrl: string): SummaryRecord {
  return { type: 'summary', baseUrl, requests: 0, retries: 0, waitedMs: 0, elapsedMs: 0, statuses: [], consistency: { settled: 0, p50Ms: 0, p95Ms: 0, maxMs: 0, invisible: 0 } };
}

/**
 * `--from-har FILE`: the suite on recorded traffic (conformance/from-har.ts), with the same reports; exits 0
 * (conforms), 1 (violations) or 2 (the file or the spec cannot be read).
 */
async function fromHar(file: string): Promise<never> {
  if (options.reporter === 'junit' && options.output === undefined && options.junit === undefined) usage('--reporter junit needs --output FILE');
  const model = await modelOf(options.spec, overlaysOf(options.overlay)).catch((error: unknown) => usage(error instanceof OverlayError ? error.message : `cannot load the spec ${options.spec}: ${(error as Error).message}`));
  const { runFromHar } = await import('./from-har.js');
  try {
    const code = await runFromHar({ file, model, specPath: options.spec, overlays: overlaysOf(options.overlay), strict: options.strict, html: options.html, junit: options.junit ?? (options.reporter === 'junit' ? options.output : undefined), har: options.har, version: PACKAGE_VERSION });
    process.exit(code);
  } catch (error) {
    return usage((error as Error).message);
  }
}

/**
 * Exits 2 with a message when the target cannot be reached (naming a certificate problem), refuses the key,
 * keeps refusing (429/503), or the base URL lacks the version segment: nothing else could be checked. Uses the
 * checks' own transport (proxy, TLS, retries), so what passes here is what the checks will meet.
 */
async function probe(target: Target): Promise<void> {
  const resolved = resolveTarget(target);
  // The first list operation without path parameters (smallest page), else any GET without path parameters, with
  // the spec's credentials: a template sent as it is (`/files/{path}/checkpoints`) names nothing, and its 404 says
  // nothing about the base URL.
  const list = model.resources.find((resource) => resource.operations.list !== undefined && resource.operations.list.pathParams.length === 0);
  const op = list?.operations.list ?? model.operations.find((candidate) => candidate.method === 'GET' && candidate.pathParams.length === 0);
  if (op === undefined) return;
  const limit = list?.limit === undefined ? '' : `?${encodeURIComponent(list.limit.parameter)}=${Math.max(1, list.limit.minimum)}`;
  const credentials = validCredentials(op.security[0], resolved.apiKey);
  const path = `${op.path}${limit}${credentials.query === undefined ? '' : `${limit === '' ? '?' : '&'}${credentials.query}`}`;
  const url = `${resolved.baseUrl}${op.path}${limit}`;
  let status: number;
  // A client of the probe's own: the run that follows starts with its own figures and connections.
  const client = new ClientState();
  try {
    status = (await send(client, resolved, { method: 'GET', path, headers: { accept: 'application/json', ...credentials.headers } })).response.status;
  } catch (error) {
    if (error instanceof TargetRefusing) return usage(error.message);
    const message = (error as Error).message;
    if (/certificate problem|TLS problem/.test(message)) return usage(`${message.replace(/^cannot reach /, 'TLS handshake failed: ')}`);
    // A server that wants a client certificate closes the TLS connection after the handshake (TLS 1.3's alert
    // often arrives as a plain close): say what that usually means.
    if (resolved.baseUrl.startsWith('https:') && resolved.tls?.cert === undefined && /UND_ERR_SOCKET|ECONNRESET|other side closed/.test(message)) {
      return usage(`the server closed the TLS connection (${message}): it probably requires a client certificate; give --cert FILE --key FILE`);
    }
    return usage(`target unreachable: GET ${url} failed (${message}). Is the server running, and the base URL right?`);
  }
  await client.close();
  if (status === 401) usage(`the target refused the API key: GET ${url} answered 401. Check --api-key.`);
  if (status === 404) usage(`GET ${url} answered 404: the base URL should end with the version segment, the spec's base path (${model.basePath || 'none'}), e.g. http://host${model.basePath}.`);
}

/** The URL of a server entry of the spec, its variables filled with their defaults (seed, Versioning). */
async function serverUrl(name: 'production' | 'staging' | 'mock'): Promise<string> {
  // The loader the model reads with: a Swagger 2.0 or multi-file spec names its servers as the mock serves them.
  const document = await readSpecDocument(options.spec, { overlays: overlaysOf(options.overlay) }).then(({ document: read }) => read as unknown as OpenAPIV3_1.Document, (error: unknown) => usage(`${options.spec}: ${(error as Error).message}`));
  const server = document.servers?.find((entry) => (entry.description ?? '').toLowerCase().includes(name === 'mock' ? 'local' : name));
  if (server === undefined) return usage(`${options.spec} has no ${name} server`);
  return server.url.replace(/\{(\w+)\}/g, (_match, variable: string) => process.env[variable.toUpperCase()] ?? server.variables?.[variable]?.default ?? '');
}

function usage(message: string): never {
  process.stderr.write(`${colour.red(`${COMMANDS.test}:`)} ${message}\n`);
  process.exit(EXIT_USAGE);
}

function positive(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('must be a positive number');
  return value;
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new InvalidArgumentError('must be a positive integer');
  return value;
}

function nonNegative(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError('must be a number of milliseconds, 0 or more');
  return value;
}

function shardOption(text: string): Shard | undefined {
  if (text.trim() === '') return undefined;
  try {
    return parseShard(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function integer(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) throw new InvalidArgumentError('must be an integer');
  return value;
}
