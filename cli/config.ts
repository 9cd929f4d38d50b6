import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { COMMANDS, envName, PRODUCT } from './product.js';

/** The config file each command reads from its working folder when present (docs/configuration.md). */
export const CONFIG_FILE = `${PRODUCT}.config.json`;

/** The sections of the config file, one per command. */
export type ConfigSection = keyof typeof COMMANDS;

/** Keys the config file may hold at its top level, for every command that has the flag. */
const SHARED_KEYS = ['spec', 'api-key', 'overlay'];

/**
 * `--overlay FILE`, repeatable, for every command that reads a description: OpenAPI Overlay files applied in order
 * before the description is read (model/overlay.ts). In the config file a string or a list (top level or a
 * command's section); in `OPENAPI_HARNESS_OVERLAY` one file or several separated by commas.
 */
export function overlayOption(): Option {
  return new Option('--overlay <file...>', 'OpenAPI Overlay file(s) applied, in order, to the description before it is read (repeatable)').env(envName('OVERLAY')).default([], 'none');
}

/** The overlay files an {@link overlayOption} holds: flags give a list, the environment one text of comma-separated files. */
export function overlaysOf(value: string[] | string | undefined): string[] {
  return (value === undefined ? [] : Array.isArray(value) ? value : value.split(',')).map((file) => file.trim()).filter(Boolean);
}

/** A setting of the config file that cannot be used: the file, where in it, and why. */
export class ConfigError extends Error {}

/**
 * Fills the options of `command` that neither a flag nor an environment variable gave from the config file:
 * `OPENAPI_HARNESS_CONFIG` when set, else `openapi-harness.config.json` in `cwd` when it exists. The file is JSON:
 * `{"spec": …, "api-key": …, "mock": {…}, "test": {…}, "proxy": {…}}`, each section keyed by the command's flag
 * names without `--` (`"max-records": 500`, `"no-cors": true`, `"api-key": ["a", "b"]`), top-level `spec` and
 * `api-key` applying to every command. So a flag wins over the environment, which wins over the file, which wins
 * over the defaults. Values are checked as the flag's own are, with the option's source set to `config`.
 * Returns the path read, or `undefined` when there is none.
 * Errors: throws {@link ConfigError} naming the file and the key (an unknown key lists the known ones).
 */
export function readConfigInto(command: Command, section: ConfigSection, environment: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  const named = environment[envName('CONFIG')];
  const path = resolve(cwd, named !== undefined && named !== '' ? named : CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (named === undefined || named === '')) return undefined;
    throw new ConfigError(`${path}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(document)) throw new ConfigError(`${path}: must hold a JSON object ({"mock": {…}, "test": {…}, "proxy": {…}})`);
  const sections = Object.keys(COMMANDS);
  const topKnown = ['$schema', ...SHARED_KEYS, ...sections];
  for (const key of Object.keys(document)) {
    if (!topKnown.includes(key)) throw new ConfigError(`${path}: unknown key "${key}" (known at the top: ${topKnown.join(', ')})`);
  }
  for (const name of sections) {
    if (document[name] !== undefined && !isObject(document[name])) throw new ConfigError(`${path} › ${name}: must be an object of ${COMMANDS[name as ConfigSection]}'s flags`);
  }
  const options = new Map(command.options.filter((option) => !option.hidden && option.long !== undefined && option.long !== '--help' && option.long !== '--version').map((option) => [option.long!.slice(2), option]));
  const own = (document[section] ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(own)) {
    // The mock hands over to the proxy before reading any setting: the proxy's upstream belongs in its own section.
    if (section === 'mock' && key === 'proxy') throw new ConfigError(`${path} › mock: "proxy" cannot be set here; put "upstream" in the "proxy" section and run ${COMMANDS.proxy}`);
    if (!options.has(key)) throw new ConfigError(`${path} › ${section}: unknown key "${key}" (${COMMANDS[section]}'s flags without "--": ${[...options.keys()].join(', ')})`);
  }
  const settings: [string, unknown, string][] = [
    // A section's own value of a shared key wins over the top-level one.
    ...SHARED_KEYS.filter((key) => document[key] !== undefined && options.has(key) && own[key] === undefined).map((key): [string, unknown, string] => [key, document[key], path]),
    ...Object.entries(own).map(([key, value]): [string, unknown, string] => [key, value, `${path} › ${section}`]),
  ];
  for (const [key, value, where] of settings) {
    const option = options.get(key)!;
    const name = option.attributeName();
    const source = command.getOptionValueSource(name);
    if (source !== undefined && source !== 'default') continue;
    command.setOptionValueWithSource(name, valueOf(option, value, `${where}: "${key}"`), 'config');
  }
  return path;
}

/**
 * {@link readConfigInto} for a command's entry: on a {@link ConfigError}, writes it after the command's name and
 * exits with `exitCode` (the command's usage error code).
 */
export function applyConfigFile(command: Command, section: ConfigSection, exitCode = 1): void {
  try {
    adoptSpecArgument(command);
    readConfigInto(command, section);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${COMMANDS[section]}: ${error.message}\n`);
    process.exit(exitCode);
  }
}

/**
 * `openapi-harness mock openapi.yaml`: the description given as the command's one argument (declared as
 * `[spec]`) is `--spec`. Errors: throws {@link ConfigError} when both are given.
 */
export function adoptSpecArgument(command: Command): void {
  const spec: unknown = command.processedArgs[0];
  if (typeof spec !== 'string' || spec === '') return;
  if (command.getOptionValueSource('spec') === 'cli') throw new ConfigError(`give the description once, as the argument (${spec}) or with --spec, not both`);
  command.setOptionValueWithSource('spec', spec, 'cli');
}

/** A config value as the flag would have given it. Errors: throws {@link ConfigError} starting with `where`. */
function valueOf(option: Option, value: unknown, where: string): unknown {
  if (!option.required && !option.optional) {
    if (typeof value !== 'boolean') throw new ConfigError(`${where} must be true or false`);
    // `"no-cors": true` turns CORS off, as the flag does; false leaves it on.
    return option.negate ? !value : value ? true : undefined;
  }
  const items = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && !option.variadic) throw new ConfigError(`${where} takes one value, not a list`);
  if (items.length === 0 || items.some((item) => typeof item !== 'string' && !(typeof item === 'number' && Number.isFinite(item)))) {
    throw new ConfigError(`${where} must be ${option.variadic ? 'a string or a list of strings' : 'a string or a number'}`);
  }
  const parsed = items.map((item) => {
    const text = String(item);
    try {
      return option.parseArg === undefined ? text : (option.parseArg as (value: string, previous: unknown) => unknown)(text, undefined);
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw new ConfigError(`${where} ${error.message.replace(/^error: /, '')}`);
      throw error;
    }
  });
  return option.variadic ? parsed : parsed[0];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
