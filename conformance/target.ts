/**
 * What the conformance suite is pointed at, and how hard it pushes (one object configures the suite).
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
  /**
   * Most milliseconds one check may take, set-up included; a check over it ends as not run, an error of the suite
   * (no verdict), and the run goes on (D372). Default: none.
   */
  checkTimeoutMs?: number;
  /**
   * Most requests in flight at once (checks run side by side, and so do the runs of one property). Default 1.
   * Verdicts and seed replay are those of a serial run (see conformance/property.ts).
   */
  concurrency?: number;
  /**
   * How long, in milliseconds, a record written with a 2xx may stay invisible to reads (read replicas) before
   * that is a violation. Default 0: strict read-after-write. See conformance/consistency.ts.
   */
  consistencyWindowMs?: number;
  /** TLS toward the target (and an HTTPS proxy): extra CA, client certificate, or no verification at all. */
  tls?: TargetTls;
  /** The OpenAPI document the target implements (the checks are derived from it). Default `spec/openapi.yaml`. */
  spec?: string;
}

/** TLS options of a {@link Target}: paths of PEM files, read by the process that sends the requests. */
export interface TargetTls {
  /** PEM file of CA certificates trusted in addition to Node's bundle (a private CA). */
  ca?: string;
  /** PEM file of the client certificate (mutual TLS); needs `key`. */
  cert?: string;
  /** PEM file of the client certificate's private key. */
  key?: string;
  /** Accept any server certificate. Only for a throwaway staging; the CLI warns loudly. */
  insecure?: boolean;
}

/** A target with every option decided. */
export type ResolvedTarget = Required<Omit<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs' | 'checkTimeoutMs' | 'tls' | 'spec'>> & Pick<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs' | 'checkTimeoutMs' | 'tls' | 'spec'>;

/** Fills the defaults of a {@link Target}; strips a trailing `/` from `baseUrl`. */
export function resolveTarget(target: Target): ResolvedTarget {
  return {
    ...target,
    baseUrl: target.baseUrl.replace(/\/+$/, ''),
    readOnly: target.readOnly ?? false,
    strict: target.strict ?? false,
    integers: target.integers ?? 'int64',
    runs: target.runs ?? 50,
    concurrency: Math.max(1, Math.floor(target.concurrency ?? 1)),
    consistencyWindowMs: Math.max(0, target.consistencyWindowMs ?? 0),
  };
}
