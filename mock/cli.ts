#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, Option } from 'commander';
import { adoptLegacyEnvironment, COMMANDS, envName } from '../cli/product.js';
import { applyConfigFile, overlaysOf } from '../cli/config.js';
import { OverlayError } from '../model/overlay.js';
import { SPEC_PATH } from '../model/loader.js';
import type { OperationModel } from '../model/model.js';
import { corsSetting, list, positive, serveCommand, unsetFalseEnvFlags, type ServeOptions } from './cli-options.js';
import { readDataFile } from './data.js';
import { settleSoon } from './starting-records.js';
import { checkAnswersSoon } from './answers.js';
import { countsLine, createLogger, loadApi, startMock } from './index.js';
import { datasetSizes } from './isolation.js';
import type { StoreState } from './store/record-store.js';
import { defaultPrefix, DEFAULT_STORE_TIMEOUT_MS, isRedisUrl, redactUrl } from './store/redis-options.js';
import { installShutdown } from './shutdown.js';
import { watchHeap } from './heap-watch.js';
import { watchSpec } from './watch.js';

/**
 * `npm start` / `openapi-harness mock`: serves a stateful mock of an OpenAPI spec (default spec/openapi.yaml).
 * Every flag has an environment variable and a default, listed by `--help`. With `--proxy URL` it hands over to
 * the validating proxy's own entry (`openapi-harness proxy`, proxy/cli.ts) in a child process with the same arguments:
 * the proxy stands on the mock, so the mock's entry only knows where the proxy's is, never its code.
 */
/** The flags that belong to the proxy alone (proxy/cli.ts), named here so that given without `--proxy` they are a clear usage error. */
const PROXY_ONLY_FLAGS = ['--upstream', '--proxy-ca', '--proxy-cert', '--proxy-key', '--mock-operations', '--fallback', '--shadow', '--errors', '--no-violation-header', '--record'];

adoptLegacyEnvironment();
if (proxyAsked(process.argv.slice(2))) await handOverToProxy();
refuseProxyOnlyFlags(process.argv.slice(2));

const program = serveCommand(COMMANDS.mock, 'Stateful mock of an OpenAPI interface (default: the shipped Pet Store Animals interface, spec/openapi.yaml).')
  .addOption(new Option('--watch', 'reload the spec when its file changes, keeping the records still valid').env(envName('WATCH')))
  .addOption(new Option('--isolate-by-key', 'each API key sees its own records; any key is accepted unless --api-key is given').env(envName('ISOLATE_BY_KEY')))
  .addOption(new Option('--state-file <file>', 'keep the records in this JSON file across restarts').env(envName('STATE_FILE')).default(undefined, 'none, in memory only'))
  .addOption(new Option('--store <memory|redis://HOST:PORT[/DB]>', 'where the records live: in this process, or in Redis, shared by every replica given the same URL and prefix').env(envName('STORE')).default('memory').argParser(store))
  .addOption(new Option('--store-prefix <name>', 'key prefix of the records in Redis (replicas with the same prefix share them)').env(envName('STORE_PREFIX')).default(undefined, "the spec's title and version, e.g. pet-store-service-animals-interface:1.0.0"))
  .addOption(new Option('--store-timeout <ms>', 'longest a request waits for Redis before its 503 with Retry-After').env(envName('STORE_TIMEOUT')).default(DEFAULT_STORE_TIMEOUT_MS).argParser(positive))
  .addOption(new Option('--proxy <base-url>', 'validating proxy: forward every request to this upstream and judge each exchange against the spec (the same as openapi-harness proxy --upstream; openapi-harness proxy --help lists its flags)').env(envName('PROXY')));

program.parse();
unsetFalseEnvFlags(program);
applyConfigFile(program, 'mock');
const options = program.opts<
  ServeOptions & {
    watch?: boolean;
    isolateByKey?: boolean;
    stateFile?: string;
    store: string;
    storePrefix?: string;
    storeTimeout: number;
  }
>();
const apiKeys = list(options.apiKey);
// With --isolate-by-key and no --api-key, any bearer key is accepted and gets its own pets (README › Isolation).
const anyKey = options.isolateByKey === true && program.getOptionValueSource('apiKey') === 'default';

try {
  const redisUrl = options.store === 'memory' ? undefined : options.store;
  if (redisUrl !== undefined && options.stateFile !== undefined) throw new Error('--state-file cannot be used with --store redis://…: the records live in Redis (use one or the other)');
  for (const flag of ['storePrefix', 'storeTimeout'] as const) {
    const given = program.getOptionValueSource(flag);
    if (redisUrl === undefined && given !== 'default' && given !== undefined) throw new Error(`--${flag === 'storePrefix' ? 'store-prefix' : 'store-timeout'} needs a Redis store (--store redis://HOST:PORT[/DB]); the memory store has no prefix or timeout`);
  }
  const overlays = overlaysOf(options.overlay);
  const api = await loadApi(options.spec, overlays).catch((error: unknown) => {
    // An overlay that cannot be applied is a usage error: its message names the overlay file and the action.
    if (error instanceof OverlayError) {
      process.stderr.write(`${COMMANDS.mock}: ${error.message}\n`);
      process.exit(2);
    }
    throw new Error(`cannot load the spec ${options.spec}: ${(error as Error).message}`);
  });
  const data = options.empty === true ? new Map() : options.data === undefined ? undefined : readDataFile(api, options.data);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  // The admin API is never open to an API key alone (a client's key must not reset its data): without --admin-token, a random token guards it.
  const adminToken = options.admin ? (options.adminToken ?? randomBytes(18).toString('base64url')) : undefined;
  const mock = await startMock({
    api,
    apiKeys: anyKey ? undefined : apiKeys,
    ...(data === undefined ? {} : { data }),
    maxPets: options.maxRecords,
    port: options.port,
    host: options.host,
    maxBodyBytes: options.maxBodyBytes,
    corsOrigins: corsSetting(options),
    latency: options.latency,
    isolateByKey: options.isolateByKey === true,
    admin: options.admin,
    adminToken,
    journalSize: options.journalSize,
    stateFile: options.stateFile,
    overlays,
    logger,
    ...(redisUrl === undefined
      ? {}
      : {
          store: {
            url: redisUrl,
            prefix: options.storePrefix,
            timeoutMs: options.storeTimeout,
            // The log says when the store goes away and when it answers again (README › Several replicas › Faults).
            onState: (state: StoreState, detail: string) => (state === 'ready' ? logger.info(detail) : logger.warn(detail)),
          },
        }),
    headersTimeout: options.headersTimeout,
    requestTimeout: options.requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout,
  });
  // SIGTERM/SIGINT: stop accepting, let requests in flight finish (bounded), write the state file, exit 0.
  // The last log lines are written while the event loop still runs: when stdout is a closed pipe
  // (`openapi-harness mock | head -1`), their write meets EPIPE and pino stops writing. Left to pino's synchronous flush
  // at exit, sonic-boom retries the broken pipe for ever and the process never ends.
  const exit = (code: number): void => {
    logger.flush();
    setTimeout(() => process.exit(code), 100);
  };
  // A long-running mock collects its garbage once its heap outgrows what is live (D582), instead of V8's up to four times.
  const heap = watchHeap();
  installShutdown(mock.server, { graceMs: options.shutdownGrace, hooks: [() => heap.stop(), () => mock.flush(), () => void mock.dispose()], log: (message) => logger.info(message), exit });
  // The start-up lines count every resource's records: a description's example records are found first, one resource
  // per turn of the event loop, while requests are answered already (D640).
  await new Promise<void>((settled) => settleSoon(mock.stores.starting, settled));
  const keyText = anyKey ? 'any bearer key (each key sees its own pets)' : `${apiKeys.join(', ')}${options.isolateByKey === true ? ' (each key sees its own pets)' : ''}`;
  const adminText = !options.admin
    ? 'off'
    : `${mock.origin}/__admin (${options.adminToken === undefined ? `generated token: send "Authorization: Bearer ${adminToken}"; choose one with --admin-token` : 'token required'})`;
  // A Redis not reachable yet leaves the count unknown; the start-up log says why.
  const counted = await Promise.resolve(datasetSizes(mock.stores.sharedData)).catch(() => undefined);
  const sizes = counted === undefined ? 'the records of its store (not reachable yet)' : sizesText(counted);
  const storeText = redisUrl === undefined ? 'in memory (this process only)' : `${redactUrl(redisUrl)}, prefix ${options.storePrefix ?? defaultPrefix(api)} (shared by every replica with the same URL and prefix; health: ${mock.origin}/__health)`;
  const first = api.resources[0];
  process.stdout.write(
    `${api.title || 'API'} mock ${api.version} serving ${mock.baseUrl} with ${sizes}\n` +
      `API key: ${keyText}\n` +
      `Admin API: ${adminText}\n` +
      (options.admin ? `Console: ${mock.origin}/__admin/ (sign in with the admin token)\n` : '') +
      `What was read, and why: run '${[COMMANDS.explain, ...explainArguments(options.spec, overlays)].join(' ')}'${options.admin ? ` or open the console's Explain tab (${mock.origin}/__admin/)` : ''}\n` +
      `Store: ${storeText}\n` +
      (first === undefined ? '' : `Try: ${tryLine(first.operations.list ?? first.operations.create, anyKey ? 'any-key' : apiKeys[0]!, `${mock.baseUrl}${first.collectionPath}`)}\n`),
  );
  // A screen at most, whatever the spec (D84): counts and one line per kind of warning; each operation's details at debug.
  logger.info(countsLine(mock.api));
  for (const note of mock.summary) logger.warn(note);
  for (const note of mock.notes) if (!mock.summary.includes(note)) logger.debug(note);
  // Answers no valid value could be made for, and examples their schema rejects: each at debug, then one line counting them.
  let answerNotes = 0;
  checkAnswersSoon(
    mock.api,
    (note) => {
      answerNotes++;
      logger.debug(note);
    },
    () => {
      logger.debug(`answers checked: ${answerNotes} note${answerNotes === 1 ? '' : 's'}`);
      if (answerNotes > 0) logger.warn(`${answerNotes} answer${answerNotes === 1 ? '' : 's'} of operations no resource holds cannot be served as documented (no valid example or sample, or examples their schema rejects): --log-level debug lists them`);
    },
  );
  if (options.watch === true) {
    watchSpec(options.spec, mock, (event) => {
      if (!event.ok) {
        logger.warn(`spec not reloaded, still serving the previous one: ${event.message}`);
        mock.reloadRefused(event.message);
      } else logger.info(`spec reloaded${event.changes.length === 0 ? ' (no operation or property changed)' : `: ${event.changes.join('; ')}`}${event.dropped === 0 ? '' : `; ${event.dropped} records no longer fit and were dropped`}`);
    }, undefined, overlays);
  }
} catch (error) {
  process.stderr.write(`${COMMANDS.mock}: ${(error as Error).message}\n`);
  process.exit(1);
}

/** Whether the command line (or OPENAPI_HARNESS_PROXY) asks for the validating proxy. */
function proxyAsked(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--proxy' || arg.startsWith('--proxy=')) || (process.env[envName('PROXY')] ?? '').trim() !== '';
}

/** Exits 1 naming the proxy-only flags given without `--proxy`. */
function refuseProxyOnlyFlags(args: readonly string[]): void {
  const stray = PROXY_ONLY_FLAGS.filter((flag) => args.some((arg) => arg === flag || arg.startsWith(`${flag}=`)));
  if (stray.length === 0) return;
  process.stderr.write(`${COMMANDS.mock}: ${stray.join(', ')} ${stray.length === 1 ? 'needs' : 'need'} --proxy BASE_URL (the upstream to forward to; or run ${COMMANDS.proxy} --upstream BASE_URL)\n`);
  process.exit(1);
}

/**
 * Runs `openapi-harness proxy` with this process's arguments, its output on this terminal, and forwards SIGTERM, SIGINT
 * and SIGHUP so a graceful stop reaches it; exits with its exit code. Never returns.
 */
async function handOverToProxy(): Promise<never> {
  const entry = fileURLToPath(new URL('../proxy/cli.js', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, entry, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  process.exit(code ?? (signal === null ? 1 : 128 + (constants.signals[signal] ?? 0)));
}

/** A curl line that calls `url` with the credentials `op`'s first security scheme asks for (none when it asks for none). */
function tryLine(op: OperationModel | undefined, key: string, url: string): string {
  const scheme = op?.security[0];
  if (scheme === undefined) return `curl ${url}`;
  if (scheme.kind === 'basic') return `curl -u 'user:${key}' ${url}`;
  if (scheme.kind === 'bearer') return `curl -H 'Authorization: Bearer ${key}' ${url}`;
  if (scheme.in === 'query') return `curl '${url}?${scheme.parameter}=${encodeURIComponent(key)}'`;
  if (scheme.in === 'cookie') return `curl -b '${scheme.parameter}=${key}' ${url}`;
  return `curl -H '${scheme.parameter}: ${key}' ${url}`;
}

/** The arguments of the explain command that reads what this mock read: the description (none for the shipped one) and its overlays. */
function explainArguments(spec: string, overlays: readonly string[]): string[] {
  const quote = (text: string): string => (/^[\w./@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
  return [...(spec === SPEC_PATH ? [] : [quote(spec)]), ...overlays.map((file) => `--overlay ${quote(file)}`)];
}

/** `--store`: `memory`, or a Redis URL (`redis://HOST:PORT[/DB]`, `rediss://` for TLS). */
function store(text: string): string {
  if (text === 'memory' || isRedisUrl(text)) return text;
  throw new InvalidArgumentError('must be "memory" or a Redis URL such as redis://127.0.0.1:6379/0');
}

/** The start-up line's record counts: each resource's, or for a large spec the first few and a total (one line stays readable). */
function sizesText(counted: Record<string, number>): string {
  const entries = Object.entries(counted);
  if (entries.length === 0) return 'no resource';
  const shown = entries.slice(0, 6).map(([name, size]) => `${size} ${name}`).join(', ');
  if (entries.length <= 6) return shown;
  const total = entries.reduce((sum, [, size]) => sum + size, 0);
  return `${shown} and ${entries.length - 6} more resources (${total} records in all)`;
}
