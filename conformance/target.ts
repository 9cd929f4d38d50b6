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
  /**
   * The run's clock: the instant whose day the date windows the suite tries first start from (D186), so that a run
   * against a server on another clock (a test's fixed day) asks the same windows. Default: the system clock.
   */
  now?: () => Date;
  /** OpenAPI Overlay files applied, in order, to `spec` before the checks are derived from it (model/overlay.ts). */
  overlays?: readonly string[];
  /**
   * Headers of the user's own sent with every request (`{authorization: 'token abc'}`, D496): for a target whose
   * description leaves out the authentication it wants. A header the suite sends itself (its credentials, `Accept`,
   * `Content-Type`, a bad key on purpose) wins. Not written into reports (they usually carry a secret).
   */
  headers?: Record<string, string>;
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
export type ResolvedTarget = Required<Omit<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs' | 'tls' | 'spec' | 'overlays' | 'headers' | 'checkTimeoutMs'>> & Pick<Target, 'seed' | 'path' | 'maxRps' | 'timeBudgetMs' | 'checkTimeoutMs' | 'tls' | 'spec' | 'overlays' | 'headers'>;

/**
 * The headers of `NAME:VALUE` texts (`--header`, D496), names in lower case, the value without the spaces around it.
 * Errors: throws an `Error` naming the text when it has no `:` or its name is not an HTTP token (RFC 9110 §5.1).
 */
export function parseHeaders(texts: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of texts) {
    const colon = text.indexOf(':');
    const name = colon < 0 ? '' : text.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`--header takes NAME:VALUE (an HTTP header name, a colon, its value), got ${JSON.stringify(text)}`);
    headers[name.toLowerCase()] = text.slice(colon + 1).trim();
  }
  return headers;
}

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
    now: target.now ?? (() => new Date()),
  };
}
