import { Command, InvalidArgumentError, Option } from 'commander';
import { SPEC_PATH } from '../model/loader.js';
import { DEFAULT_API_KEYS, envName, LEGACY } from '../cli/product.js';
import { overlayOption } from '../cli/config.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './logger.js';
import { parseLatency, type Latency } from './prefer.js';

/**
 * The flags every server of this package takes, the mock's (`openapi-harness mock`) and the validating proxy's
 * (`openapi-harness proxy`, which serves the mock for the operations it keeps): the spec, where to listen, the keys,
 * starting records, CORS, the admin API, logs and timeouts. Each has an environment variable and a default that
 * `--help` lists. The mock adds its store and isolation flags, the proxy its upstream flags.
 */
export function serveCommand(name: string, description: string): Command {
  const command: Command = new Command(name)
    .description(description)
    .argument('[spec]', 'the OpenAPI description, as --spec')
    .addOption(new Option('--spec <file>', 'OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; YAML or JSON; one file or several) to serve').env(envName('SPEC')).default(SPEC_PATH, 'spec/openapi.yaml, the shipped Pet Store Animals interface'))
    .addOption(overlayOption())
    .addOption(new Option('--port <number>', 'TCP port to listen on (0 picks a free one)').env('PORT').default(4010).argParser(port))
    .addOption(new Option('--host <address>', 'interface to listen on').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--api-key <key...>', "API key(s) accepted by the spec's security schemes (the shipped spec: \"Authorization: Bearer <key>\")").env(envName('API_KEY')).default([...DEFAULT_API_KEYS]))
    .addOption(new Option('--data <file>', 'JSON file of starting records: an array (first resource) or {"<resource>": [...]}').env(envName('DATA')).default(undefined, 'the embedded demo pets for the shipped spec; for another spec, the records its examples show'))
    .addOption(new Option('--empty', 'start with no records').env(envName('EMPTY')))
    .addOption(new Option('--max-records <number>', 'most records held per resource; a create answers 409 STORE_FULL beyond').env(envName('MAX_RECORDS')).default(1_000_000).argParser(positive))
    .addOption(new Option('--max-body-bytes <number>', 'largest request body accepted (413 beyond)').env(envName('MAX_BODY_BYTES')).default(1024 * 1024).argParser(positive))
    .addOption(new Option('--cors-origin <origin...>', 'origins a browser page may call from (CORS)').env(envName('CORS_ORIGINS')).default(['*'], 'any origin (*)'))
    .addOption(new Option('--no-cors', 'send no CORS headers').env(envName('NO_CORS')).default(true, 'CORS on'))
    .addOption(new Option('--latency <ms|min-max>', 'wait before every answer, fixed or random in a range (Prefer: delay=MS overrides)').env(envName('LATENCY')).default(undefined, '0').argParser(latency))
    .addOption(new Option('--admin-token <token>', 'token the admin API (/__admin) requires as "Authorization: Bearer <token>"').env(envName('ADMIN_TOKEN')).default(undefined, 'a random token, printed at start'))
    .addOption(new Option('--no-admin', 'turn the admin API (/__admin) off').env(envName('NO_ADMIN')).default(true, 'admin on'))
    .addOption(new Option('--journal-size <number>', 'requests kept for GET /__admin/requests').env(envName('JOURNAL_SIZE')).default(100).argParser(natural))
    .addOption(new Option('--log-level <level>', 'request log and warnings').env(envName('LOG_LEVEL')).default('info').choices(LOG_LEVELS))
    .addOption(new Option('--headers-timeout <ms>', 'time a client has to send the request headers (408 beyond)').env(envName('HEADERS_TIMEOUT')).default(10_000).argParser(positive))
    .addOption(new Option('--request-timeout <ms>', 'time a client has to send the whole request (408 beyond)').env(envName('REQUEST_TIMEOUT')).default(30_000).argParser(positive))
    .addOption(new Option('--keep-alive-timeout <ms>', 'time an idle keep-alive connection stays open').env(envName('KEEP_ALIVE_TIMEOUT')).default(5_000).argParser(natural))
    .addOption(new Option('--shutdown-grace <ms>', 'on SIGTERM/SIGINT, time requests in flight get to finish').env(envName('SHUTDOWN_GRACE')).default(10_000).argParser(natural))
    .addOption(new Option('--log-format <format>', 'auto: readable on a terminal, JSON lines otherwise').env(envName('LOG_FORMAT')).default('auto').choices(['auto', 'pretty', 'json']))
    .configureHelp({ optionDescription: describeOption })
    .showHelpAfterError();
  // Each old flag name, hidden, sets its new one as the new one would.
  for (const [old, current] of Object.entries(LEGACY.flags)) {
    const renamed = command.options.find((option) => option.long === current)!;
    const alias = new Option(`${old} <value>`).hideHelp();
    // The same parser first, so a bad value is refused as the new flag refuses it, with the usage.
    if (renamed.parseArg !== undefined) alias.argParser(renamed.parseArg);
    command.addOption(alias);
    command.on(`option:${old.slice(2)}`, (value: string) => command.setOptionValueWithSource(renamed.attributeName(), renamed.parseArg === undefined ? value : renamed.parseArg(value, undefined), 'cli'));
  }
  return command;
}

/** The values of {@link serveCommand}'s flags once parsed (times in ms, sizes in bytes). */
export interface ServeOptions {
  spec: string;
  /** `--overlay`: a list from flags or the config file, one comma-separated text from the environment (cli/config.ts overlaysOf). */
  overlay: string[] | string;
  port: number;
  host: string;
  apiKey: string[] | string;
  data?: string;
  empty?: boolean;
  maxRecords: number;
  maxBodyBytes: number;
  corsOrigin: string[] | string;
  cors: boolean;
  latency?: Latency;
  adminToken?: string;
  admin: boolean;
  journalSize: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  shutdownGrace: number;
}

/** `--cors-origin` as the servers take it: `false` (no CORS), `'*'`, or the list of origins. */
export function corsSetting(options: Pick<ServeOptions, 'cors' | 'corsOrigin'>): false | '*' | string[] {
  const origins = list(options.corsOrigin);
  return !options.cors ? false : origins.includes('*') ? '*' : origins;
}

/** `a,b` from an environment variable or repeated flags: a trimmed list without empty items. */
export function list(value: string[] | string): string[] {
  return (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean);
}

/** Whether the user gave `name` (by flag or environment), as opposed to its default. */
export function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source !== undefined && source !== 'default';
}

/**
 * A boolean flag set from its environment variable counts as unset when the value is `0`, `false`, `no`,
 * `off` or empty (commander would turn it on for any value), so `OPENAPI_HARNESS_EMPTY=false` means what it says.
 */
export function unsetFalseEnvFlags(command: Command): void {
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

/** A whole number of 1 or more (a size, a count, a time in ms). */
export function positive(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('must be a positive integer');
  return value;
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
