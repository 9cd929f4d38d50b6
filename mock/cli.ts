#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { PACKAGE_ROOT, type ApiModel, type OperationModel } from '../spec/model.js';
import { readDataFile, type StartingData } from './data.js';
import { checkAnswersSoon } from './answers.js';
import { countsLine, createLogger, DEFAULT_API_KEY, loadApi, parseLatency, SPEC_PATH, startMock, type Latency, type LogFormat, type LogLevel } from './index.js';
import { datasetSizes } from './isolation.js';
import type { StoreState } from './store/record-store.js';
import { defaultPrefix, DEFAULT_STORE_TIMEOUT_MS, isRedisUrl, redactUrl } from './store/redis-options.js';
import { LOG_LEVELS } from './logger.js';
import { installShutdown } from './shutdown.js';
import { watchSpec } from './watch.js';

/**
 * `npm start` / `petstore-mock`: serves a stateful mock of an OpenAPI spec (default spec/openapi.yaml).
 * Every flag has an environment variable and a default, listed by `--help`.
 */
const program = new Command('petstore-mock')
  .description('Stateful mock of an OpenAPI interface (default: the Pet Store Animals interface, spec/openapi.yaml).')
  .addOption(new Option('--spec <file>', 'OpenAPI document (3.0 or 3.1, YAML or JSON) to serve').env('PETSTORE_SPEC').default(SPEC_PATH, 'spec/openapi.yaml'))
  .addOption(new Option('--watch', 'reload the spec when its file changes, keeping the records still valid').env('PETSTORE_WATCH'))
  .addOption(new Option('--port <number>', 'TCP port to listen on (0 picks a free one)').env('PORT').default(4010).argParser(port))
  .addOption(new Option('--host <address>', 'interface to listen on').env('HOST').default('127.0.0.1'))
  .addOption(new Option('--api-key <key...>', 'API key(s) accepted by the spec\'s security schemes (seed: "Authorization: Bearer <key>")').env('PETSTORE_API_KEY').default([DEFAULT_API_KEY]))
  .addOption(new Option('--data <file>', 'JSON file of starting records: an array (first resource) or {"<resource>": [...]}').env('PETSTORE_DATA').default(undefined, "the embedded demo pets for the shipped spec; for another spec, the records its examples show"))
  .addOption(new Option('--empty', 'start with no records').env('PETSTORE_EMPTY'))
  .addOption(new Option('--max-pets <number>', 'most records held per resource; a create answers 409 STORE_FULL beyond').env('PETSTORE_MAX_PETS').default(1_000_000).argParser(positive))
  .addOption(new Option('--max-body-bytes <number>', 'largest request body accepted (413 beyond)').env('PETSTORE_MAX_BODY_BYTES').default(1024 * 1024).argParser(positive))
  .addOption(new Option('--cors-origin <origin...>', 'origins a browser page may call from (CORS)').env('PETSTORE_CORS_ORIGINS').default(['*'], 'any origin (*)'))
  .addOption(new Option('--no-cors', 'send no CORS headers').env('PETSTORE_NO_CORS').default(true, 'CORS on'))
  .addOption(new Option('--latency <ms|min-max>', 'wait before every answer, fixed or random in a range (Prefer: delay=MS overrides)').env('PETSTORE_LATENCY').default(undefined, '0').argParser(latency))
  .addOption(new Option('--isolate-by-key', 'each API key sees its own records; any key is accepted unless --api-key is given').env('PETSTORE_ISOLATE_BY_KEY'))
  .addOption(new Option('--state-file <file>', 'keep the records in this JSON file across restarts').env('PETSTORE_STATE_FILE').default(undefined, 'none, in memory only'))
  .addOption(new Option('--store <memory|redis://HOST:PORT[/DB]>', 'where the records live: in this process, or in Redis, shared by every replica given the same URL and prefix').env('PETSTORE_STORE').default('memory').argParser(store))
  .addOption(new Option('--store-prefix <name>', 'key prefix of the records in Redis (replicas with the same prefix share them)').env('PETSTORE_STORE_PREFIX').default(undefined, "the spec's title and version, e.g. pet-store-service-animals-interface:1.0.0"))
  .addOption(new Option('--store-timeout <ms>', 'longest a request waits for Redis before its 503 with Retry-After').env('PETSTORE_STORE_TIMEOUT').default(DEFAULT_STORE_TIMEOUT_MS).argParser(positive))
  .addOption(new Option('--admin-token <token>', 'token the admin API (/__admin) requires as "Authorization: Bearer <token>"').env('PETSTORE_ADMIN_TOKEN').default(undefined, 'a random token, printed at start'))
  .addOption(new Option('--no-admin', 'turn the admin API (/__admin) off').env('PETSTORE_NO_ADMIN').default(true, 'admin on'))
  .addOption(new Option('--journal-size <number>', 'requests kept for GET /__admin/requests').env('PETSTORE_JOURNAL_SIZE').default(100).argParser(natural))
  .addOption(new Option('--log-level <level>', 'request log and warnings').env('PETSTORE_LOG_LEVEL').default('info').choices(LOG_LEVELS))
  .addOption(new Option('--headers-timeout <ms>', 'time a client has to send the request headers (408 beyond)').env('PETSTORE_HEADERS_TIMEOUT').default(10_000).argParser(positive))
  .addOption(new Option('--request-timeout <ms>', 'time a client has to send the whole request (408 beyond)').env('PETSTORE_REQUEST_TIMEOUT').default(30_000).argParser(positive))
  .addOption(new Option('--keep-alive-timeout <ms>', 'time an idle keep-alive connection stays open').env('PETSTORE_KEEP_ALIVE_TIMEOUT').default(5_000).argParser(natural))
  .addOption(new Option('--shutdown-grace <ms>', 'on SIGTERM/SIGINT, time requests in flight get to finish').env('PETSTORE_SHUTDOWN_GRACE').default(10_000).argParser(natural))
  .addOption(new Option('--log-format <format>', 'auto: readable on a terminal, JSON lines otherwise').env('PETSTORE_LOG_FORMAT').default('auto').choices(['auto', 'pretty', 'json']))
  .addOption(new Option('--proxy <base-url>', 'validating proxy: forward every request to this upstream (its base URL, e.g. https://staging.example.com/v1) and judge each exchange against the spec').env('PETSTORE_PROXY'))
  .addOption(new Option('--proxy-ca <file>', 'with --proxy: PEM file of a CA to trust for an https upstream, besides the system ones').env('PETSTORE_PROXY_CA'))
  .addOption(new Option('--proxy-cert <file>', 'with --proxy: PEM client certificate for the upstream (mutual TLS), with --proxy-key').env('PETSTORE_PROXY_CERT'))
  .addOption(new Option('--proxy-key <file>', 'with --proxy: PEM private key of --proxy-cert').env('PETSTORE_PROXY_KEY'))
  .addOption(new Option('--mock-operations <operationId...>', 'with --proxy: answer these operations from the mock, never from the upstream').env('PETSTORE_MOCK_OPERATIONS'))
  .addOption(new Option('--fallback', 'with --proxy: answer from the mock when the upstream lacks the route (404), answers 501, or cannot be reached').env('PETSTORE_FALLBACK'))
  .addOption(new Option('--errors', "with --proxy: refuse a request the spec does not allow with the spec's 400/401 instead of forwarding it").env('PETSTORE_ERRORS'))
  .addOption(new Option('--no-violation-header', 'with --proxy: leave out the X-Petstore-Violations response header').env('PETSTORE_NO_VIOLATION_HEADER').default(true, 'header on'))
  .addOption(new Option('--record <dir>', 'with --proxy: write the exchanges (DIR/traffic.har) and the records seen (DIR/data.json, for --data) into this folder').env('PETSTORE_RECORD'))
  .configureHelp({ optionDescription: describeOption })
  .showHelpAfterError();

program.parse();
const PACKAGE_VERSION = (JSON.parse(readFileSync(`${PACKAGE_ROOT}/package.json`, 'utf8')) as { version: string }).version;
unsetFalseEnvFlags(program);
const options = program.opts<{
  spec: string;
  watch?: boolean;
  port: number;
  host: string;
  apiKey: string[] | string;
  data?: string;
  empty?: boolean;
  maxPets: number;
  maxBodyBytes: number;
  corsOrigin: string[] | string;
  cors: boolean;
  latency?: Latency;
  isolateByKey?: boolean;
  stateFile?: string;
  store: string;
  storePrefix?: string;
  storeTimeout: number;
  adminToken?: string;
  admin: boolean;
  journalSize: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  shutdownGrace: number;
  proxy?: string;
  proxyCa?: string;
  proxyCert?: string;
  proxyKey?: string;
  mockOperations?: string[] | string;
  fallback?: boolean;
  errors?: boolean;
  violationHeader: boolean;
  record?: string;
}>();
const apiKeys = list(options.apiKey);
const corsOrigins = list(options.corsOrigin);
// With --isolate-by-key and no --api-key, any bearer key is accepted and gets its own pets (README › Isolation).
const anyKey = options.isolateByKey === true && program.getOptionValueSource('apiKey') === 'default';

try {
  const redisUrl = options.store === 'memory' ? undefined : options.store;
  if (redisUrl !== undefined && options.stateFile !== undefined) throw new Error('--state-file cannot be used with --store redis://…: the records live in Redis (use one or the other)');
  for (const flag of ['storePrefix', 'storeTimeout'] as const) {
    const given = program.getOptionValueSource(flag);
    if (redisUrl === undefined && given !== 'default' && given !== undefined) throw new Error(`--${flag === 'storePrefix' ? 'store-prefix' : 'store-timeout'} needs a Redis store (--store redis://HOST:PORT[/DB]); the memory store has no prefix or timeout`);
  }
  const api = await loadApi(options.spec).catch((error: unknown) => {
    throw new Error(`cannot load the spec ${options.spec}: ${(error as Error).message}`);
  });
  checkProxyFlags();
  const data = options.empty === true ? new Map() : options.data === undefined ? undefined : readDataFile(api, options.data);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  // The admin API is never open to an API key alone (a client's key must not reset its data): without --admin-token, a random token guards it.
  const adminToken = options.admin ? (options.adminToken ?? randomBytes(18).toString('base64url')) : undefined;
  if (options.proxy !== undefined) {
    await runProxy(api, data, logger, adminToken);
  } else {
    const mock = await startMock({
      api,
      apiKeys: anyKey ? undefined : apiKeys,
      ...(data === undefined ? {} : { data }),
      maxPets: options.maxPets,
      port: options.port,
      host: options.host,
      maxBodyBytes: options.maxBodyBytes,
      corsOrigins: !options.cors ? false : corsOrigins.includes('*') ? '*' : corsOrigins,
      latency: options.latency,
      isolateByKey: options.isolateByKey === true,
      admin: options.admin,
      adminToken,
      journalSize: options.journalSize,
      stateFile: options.stateFile,
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
      });
    }
    // SIGTERM/SIGINT: stop accepting, let requests in flight finish (bounded), write the state file, exit 0.
    // The last log lines are written while the event loop still runs: when stdout is a closed pipe
    // (`petstore-mock | head -1`), their write meets EPIPE and pino stops writing. Left to pino's synchronous flush
    // at exit, sonic-boom retries the broken pipe for ever and the process never ends.
    const exit = (code: number): void => {
      logger.flush();
      setTimeout(() => process.exit(code), 100);
    };
    installShutdown(mock.server, { graceMs: options.shutdownGrace, hooks: [() => mock.flush(), () => void mock.dispose()], log: (message) => logger.info(message), exit });
  }
} catch (error) {
  process.stderr.write(`petstore-mock: ${(error as Error).message}\n`);
  process.exit(1);
}

/** Flags that only mean something with --proxy, and those that cannot go with it: a usage error naming them. */
function checkProxyFlags(): void {
  const proxyOnly = { proxyCa: '--proxy-ca', proxyCert: '--proxy-cert', proxyKey: '--proxy-key', mockOperations: '--mock-operations', fallback: '--fallback', errors: '--errors', violationHeader: '--no-violation-header', record: '--record' } as const;
  const given = (name: string): boolean => {
    const source = program.getOptionValueSource(name);
    return source !== undefined && source !== 'default';
  };
  if (options.proxy === undefined) {
    const stray = Object.entries(proxyOnly).filter(([name]) => given(name)).map(([, flag]) => flag);
    if (stray.length > 0) throw new Error(`${stray.join(', ')} need --proxy BASE_URL (the upstream to forward to)`);
    return;
  }
  if (!/^https?:\/\/[^/]/.test(options.proxy)) throw new Error(`--proxy must be an http(s) URL, got ${JSON.stringify(options.proxy)}`);
  const conflicts = { store: '--store', isolateByKey: '--isolate-by-key', watch: '--watch', stateFile: '--state-file' } as const;
  const clashing = Object.entries(conflicts).filter(([name]) => given(name)).map(([, flag]) => flag);
  if (clashing.length > 0) throw new Error(`${clashing.join(', ')} cannot be used with --proxy (the proxy's mock side keeps its records in memory, shared by every key)`);
  if ((options.proxyCert === undefined) !== (options.proxyKey === undefined)) throw new Error('a client certificate for the upstream needs both --proxy-cert FILE and --proxy-key FILE');
}

/** `--proxy`: the validating proxy in front of the upstream, with the mock for fallback (README › Proxy). */
async function runProxy(api: ApiModel, data: StartingData | undefined, logger: Logger, adminToken: string | undefined): Promise<void> {
  const { startProxy } = await import('../proxy/proxy.js');
  const tls = { ...(options.proxyCa === undefined ? {} : { ca: options.proxyCa }), ...(options.proxyCert === undefined ? {} : { cert: options.proxyCert }), ...(options.proxyKey === undefined ? {} : { key: options.proxyKey }) };
  const proxy = await startProxy({
    model: api,
    upstream: options.proxy!.replace(/\/+$/, ''),
    tls,
    mockOperations: options.mockOperations === undefined ? [] : list(options.mockOperations),
    fallback: options.fallback === true,
    errors: options.errors === true,
    violationHeader: options.violationHeader,
    record: options.record,
    version: PACKAGE_VERSION,
    logger,
    port: options.port,
    host: options.host,
    maxBodyBytes: options.maxBodyBytes,
    mock: {
      apiKeys,
      ...(data === undefined ? {} : { data }),
      maxPets: options.maxPets,
      corsOrigins: !options.cors ? false : corsOrigins.includes('*') ? '*' : corsOrigins,
      admin: options.admin,
      adminToken,
      journalSize: options.journalSize,
    },
  });
  const adminText = !options.admin ? 'off' : `${proxy.origin}/__admin (violations: GET ${proxy.origin}/__admin/violations${options.adminToken === undefined ? `; generated token: send "Authorization: Bearer ${adminToken}"` : '; token required'})`;
  const mocked = options.mockOperations === undefined ? [] : list(options.mockOperations);
  process.stdout.write(
    `${api.title || 'API'} validating proxy ${api.version} serving ${proxy.baseUrl} in front of ${redactUrl(options.proxy!)}\n` +
      `Mock side: ${mocked.length === 0 ? 'no operation' : mocked.join(', ')}${options.fallback === true ? '; fallback on 404 route, 501 or unreachable' : ''}\n` +
      `Admin API: ${adminText}\n` +
      (options.record === undefined ? '' : `Recording into ${options.record} (traffic.har, data.json)\n`),
  );
  for (const note of proxy.mock.notes) logger.debug(note);
  const exit = (code: number): void => {
    logger.flush();
    setTimeout(() => process.exit(code), 100);
  };
  installShutdown(proxy.server, { graceMs: options.shutdownGrace, hooks: [() => proxy.flush(), () => void proxy.mock.dispose()], log: (message) => logger.info(message), exit });
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

/** `--store`: `memory`, or a Redis URL (`redis://HOST:PORT[/DB]`, `rediss://` for TLS). */
function store(text: string): string {
  if (text === 'memory' || isRedisUrl(text)) return text;
  throw new InvalidArgumentError('must be "memory" or a Redis URL such as redis://127.0.0.1:6379/0');
}

function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535');
  return value;
}

function natural(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError('must be a whole number (0 or more)');
  return value;
}

function latency(text: string): Latency {
  try {
    return parseLatency(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** `a,b` from an environment variable or repeated flags: a trimmed list without empty items. */
function list(value: string[] | string): string[] {
  return (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean);
}

/**
 * A boolean flag set from its environment variable counts as unset when the value is `0`, `false`, `no`,
 * `off` or empty (commander would turn it on for any value), so `PETSTORE_EMPTY=false` means what it says.
 */
function unsetFalseEnvFlags(command: Command): void {
  for (const option of command.options) {
    const name = option.attributeName();
    if (option.envVar === undefined || !option.isBoolean() || command.getOptionValueSource(name) !== 'env') continue;
    if (/^(0|false|no|off|)$/i.test(process.env[option.envVar]!.trim())) command.setOptionValueWithSource(name, option.negate ? true : undefined, 'default');
  }
}

/** `--help` line of an option: its description, then choices, default and environment variable, for every flag. */
function describeOption(option: Option): string {
  if (option.long === '--help' || option.long === '--version') return option.description;
  const choices = option.argChoices === undefined ? [] : [`choices: ${option.argChoices.join(', ')}`];
  const fallback = option.defaultValue === undefined ? 'off' : JSON.stringify(option.defaultValue);
  const env = option.envVar === undefined ? [] : [`env: ${option.envVar}`];
  return `${option.description} (${[...choices, `default: ${option.defaultValueDescription ?? fallback}`, ...env].join(', ')})`;
}

function positive(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('must be a positive integer');
  return value;
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
