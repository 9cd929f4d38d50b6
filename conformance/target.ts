/**
 * What the conformance suite is pointed at, and how hard it pushes (STYLE 5: one object configures the suite).
 * The same checks run against the mock, staging, or any implementation of the seed.
 */
export interface Target {
  /** Base address ending with the version segment (seed, Versioning), e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /** A key the target accepts as `Authorization: Bearer <key>` (seed, Authentication). */
  apiKey: string;
  /** Never send a request that could write (for production); checks that must write are skipped with a reason. */
  readOnly?: boolean;
  /** Hold the target to the schema as written where the seed says "not shown" (see spec/DECISIONS.md). */
  strict?: boolean;
  /**
   * Range of generated integers: `int64` (default, the seed's type) or `safe`, within ±(2^53-1), for an
   * intermediary that reads JSON numbers as doubles, such as Prism's proxy. Never `safe` to judge an implementation.
   */
  integers?: 'int64' | 'safe';
  /** fast-check runs per property. Default 50. */
  runs?: number;
  /** fast-check seed; a printed seed replays a failing run. Default: random. */
  seed?: number;
  /** fast-check path of a printed counterexample (with `seed`, replays it at once; one check at a time). */
  path?: string;
  /** Most requests per second sent to the target (politeness toward shared staging). Default: unlimited. */
  maxRps?: number;
  /** Time budget of one property, in milliseconds: runs stop early once it is spent. Default: none. */
  timeBudgetMs?: number;
}

/** A target with every option decided. */
export type ResolvedTarget = Required<Omit<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs'>> & Pick<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs'>;

/** Fills the defaults of a {@link Target}; strips a trailing `/` from `baseUrl`. */
export function resolveTarget(target: Target): ResolvedTarget {
  return {
    ...target,
    baseUrl: target.baseUrl.replace(/\/+$/, ''),
    readOnly: target.readOnly ?? false,
    strict: target.strict ?? false,
    integers: target.integers ?? 'int64',
    runs: target.runs ?? 50,
  };
}

/**
 * The environment variables through which the CLI hands a target to the vitest workers:
 * `PETSTORE_BASE_URL`, `PETSTORE_API_KEY`, `CONFORMANCE_READ_ONLY`, `CONFORMANCE_STRICT`, `CONFORMANCE_RUNS`,
 * `CONFORMANCE_SEED`, `CONFORMANCE_PATH`, `CONFORMANCE_MAX_RPS`, `CONFORMANCE_TIME_BUDGET` (seconds per property).
 * Returns `undefined` when no base URL is set (then `npm test` points the suite at a fresh mock).
 */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): Target | undefined {
  const baseUrl = env['PETSTORE_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') return undefined;
  const number = (name: string): number | undefined => (env[name] === undefined || env[name] === '' ? undefined : Number(env[name]));
  const budget = number('CONFORMANCE_TIME_BUDGET');
  return {
    baseUrl,
    apiKey: env['PETSTORE_API_KEY'] ?? '',
    readOnly: env['CONFORMANCE_READ_ONLY'] === 'true',
    strict: env['CONFORMANCE_STRICT'] === 'true',
    ...optional('runs', number('CONFORMANCE_RUNS')),
    ...optional('seed', number('CONFORMANCE_SEED')),
    ...optional('maxRps', number('CONFORMANCE_MAX_RPS')),
    ...(env['CONFORMANCE_PATH'] ? { path: env['CONFORMANCE_PATH'] } : {}),
    ...optional('timeBudgetMs', budget === undefined ? undefined : budget * 1000),
  };
}

/** Writes a target into environment variables, the inverse of {@link targetFromEnv}. */
export function targetToEnv(target: Target): Record<string, string> {
  const env: Record<string, string> = { PETSTORE_BASE_URL: target.baseUrl, PETSTORE_API_KEY: target.apiKey };
  if (target.readOnly === true) env['CONFORMANCE_READ_ONLY'] = 'true';
  if (target.strict === true) env['CONFORMANCE_STRICT'] = 'true';
  if (target.runs !== undefined) env['CONFORMANCE_RUNS'] = String(target.runs);
  if (target.seed !== undefined) env['CONFORMANCE_SEED'] = String(target.seed);
  if (target.path !== undefined) env['CONFORMANCE_PATH'] = target.path;
  if (target.maxRps !== undefined) env['CONFORMANCE_MAX_RPS'] = String(target.maxRps);
  if (target.timeBudgetMs !== undefined) env['CONFORMANCE_TIME_BUDGET'] = String(target.timeBudgetMs / 1000);
  return env;
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined || Number.isNaN(value) ? {} : ({ [key]: value } as Record<K, number>);
}
