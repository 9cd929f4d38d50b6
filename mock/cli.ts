#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OperationModel } from '../spec/model.js';
import { readDataFile } from './data.js';
import { createLogger, DEFAULT_API_KEY, loadApi, parseLatency, SPEC_PATH, startMock, type Latency, type LogFormat, type LogLevel } from './index.js';
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
  .addOption(new Option('--data <file>', 'JSON file of starting records: an array (first resource) or {"<resource>": [...]}').env('PETSTORE_DATA').default(undefined, 'the embedded demo pets, when they fit the spec'))
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
  .configureHelp({ optionDescription: describeOption })
  .showHelpAfterError();

program.parse();
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
  const data = options.empty === true ? new Map() : options.data === undefined ? undefined : readDataFile(api, options.data);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  // The admin API is never open to an API key alone (a client's key must not reset its data): without --admin-token, a random token guards it.
  const adminToken = options.admin ? (options.adminToken ?? randomBytes(18).toString('base64url')) : undefined;
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
  const sizes = counted === undefined ? 'the records of its store (not reachable yet)' : Object.entries(counted).map(([name, size]) => `${size} ${name}`).join(', ') || 'no resource';
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
  for (const note of mock.notes) logger.warn(note);
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
} catch (error) {
  process.stderr.write(`petstore-mock: ${(error as Error).message}\n`);
  process.exit(1);
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
