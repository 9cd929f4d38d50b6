/**
 * The product's name and every name a user meets (command, environment variables, headers, default key, state
 * format), with the Pet Store names the package shipped under before, kept as aliases (README › Renamed). Other
 * modules take their names from here, so a rename is one table.
 */

/** The package, its one command, and the prefix of everything else named after it. */
export const PRODUCT = 'openapi-harness';

/** The command each entry runs as, for usage lines, error prefixes and reports (`openapi-harness mock`, …). */
export const COMMANDS = {
  mock: `${PRODUCT} mock`,
  test: `${PRODUCT} test`,
  proxy: `${PRODUCT} proxy`,
  explain: `${PRODUCT} explain`,
} as const;

/** Prefix of every environment variable the commands read (`OPENAPI_HARNESS_SPEC`, `OPENAPI_HARNESS_API_KEY`, …). */
export const ENV_PREFIX = 'OPENAPI_HARNESS_';

/** The environment variable of a setting: `envName('SPEC')` is `OPENAPI_HARNESS_SPEC`. */
export function envName(setting: string): string {
  return `${ENV_PREFIX}${setting}`;
}

/** The mock's default API key, accepted when no `--api-key` is given and printed at start. */
export const DEFAULT_API_KEY = `${PRODUCT}-dev-key`;

/** Request header naming the key whose data an admin call acts on, with `--isolate-by-key` (lower case, as node reads it). */
export const ADMIN_KEY_HEADER = `x-${PRODUCT}-key`;

/** Response header of the validating proxy: the count and list of the violations of an exchange. */
export const VIOLATIONS_HEADER = `x-${PRODUCT}-violations`;

/** Response header of the validating proxy: who answered (upstream or mock) and why. */
export const ANSWERED_BY_HEADER = `x-${PRODUCT}-answered-by`;

/** The `format` a state file written now carries (`--state-file`). */
export const STATE_FORMAT = `${PRODUCT}-state/2`;

/**
 * The names the package shipped under as the Pet Store harness, each still honoured:
 * - `bins`: the old commands, installed beside `openapi-harness` and running the same entries;
 * - `envPrefix`: every `PETSTORE_X` is read as `OPENAPI_HARNESS_X` when the latter is unset; `renamedEnv` maps the
 *   variables whose setting was renamed too, or that had another prefix;
 * - `apiKey`: accepted by default beside {@link DEFAULT_API_KEY};
 * - `adminKeyHeader`: read when {@link ADMIN_KEY_HEADER} is absent;
 * - `violationsHeader`, `answeredByHeader`: sent beside the new headers, so a client reading the old ones still works;
 * - `stateFormats`: state files written before, read as before (`/1` held only the first resource's records);
 * - `flags`: old option names, hidden from `--help`.
 */
export const LEGACY = {
  bins: { 'petstore-mock': 'mock', 'petstore-conformance': 'test', 'petstore-proxy': 'proxy' },
  envPrefix: 'PETSTORE_',
  renamedEnv: { PETSTORE_MAX_PETS: 'OPENAPI_HARNESS_MAX_RECORDS', CONFORMANCE_CONSISTENCY_WINDOW: 'OPENAPI_HARNESS_CONSISTENCY_WINDOW' } as Readonly<Record<string, string>>,
  apiKey: 'petstore-dev-key',
  adminKeyHeader: 'x-petstore-key',
  violationsHeader: 'x-petstore-violations',
  answeredByHeader: 'x-petstore-answered-by',
  stateFormats: { v1: 'petstore-mock-state/1', v2: 'petstore-mock-state/2' },
  flags: { '--max-pets': '--max-records' },
} as const;

/** The keys the mock accepts when none is given: the default key and the Pet Store harness's. */
export const DEFAULT_API_KEYS: readonly string[] = [DEFAULT_API_KEY, LEGACY.apiKey];

/**
 * Reads each old `PETSTORE_*` variable as its new name when the new one is not set (the new name wins when both
 * are), by copying it into `environment`. Called first by every command, before its options read the environment.
 * Returns the old names that were taken, in order.
 */
export function adoptLegacyEnvironment(environment: NodeJS.ProcessEnv = process.env): string[] {
  const taken: string[] = [];
  for (const [name, value] of Object.entries(environment)) {
    if ((!name.startsWith(LEGACY.envPrefix) && LEGACY.renamedEnv[name] === undefined) || value === undefined) continue;
    const current = LEGACY.renamedEnv[name] ?? `${ENV_PREFIX}${name.slice(LEGACY.envPrefix.length)}`;
    if (environment[current] !== undefined) continue;
    environment[current] = value;
    taken.push(name);
  }
  return taken;
}

/** The value of the admin key header of a request, by its new name or, failing that, its old one. */
export function adminKeyOf(headers: Readonly<Record<string, string | string[] | undefined>>): string | string[] | undefined {
  return headers[ADMIN_KEY_HEADER] ?? headers[LEGACY.adminKeyHeader];
}

/** What reports, curl lines and HAR files write in place of the target's own key: a shell variable, never the secret. */
export const KEY_PLACEHOLDER = `$${ENV_PREFIX}API_KEY`;
