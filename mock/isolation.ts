import { createHash } from 'node:crypto';
import { bearerToken } from './bearer.js';
import type { MockRequest, MockResponse } from './pipeline.js';
import { PetStore, type PetRecord } from './store.js';

/** Most API keys that get their own data with `--isolate-by-key`; beyond, a 429 `TOO_MANY_KEYS` until a reset. */
export const MAX_ISOLATED_KEYS = 1000;

/** SHA-256 of an API key, hex: how keys are told apart and written to a state file (never the key itself). */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** One key's data and the pipeline that serves it (built on the key's first request: a state file holds digests, not keys). */
export interface Tenant {
  store: PetStore;
  handle?: (request: MockRequest) => MockResponse;
}

/** How to build the stores of a mock. */
export interface StoresOptions {
  /** Starting pets: every store begins with them, and a reset restores them. */
  starting: readonly PetRecord[];
  maxPets: number;
  /** With `isolate`, each accepted API key has its own store (README › Isolation). */
  isolate: boolean;
  /** Keys given explicitly (`--api-key`): with `isolate`, only these get data; `undefined` accepts any bearer key. */
  acceptedKeys: readonly string[] | undefined;
  /** Builds the pipeline of one store; `key` is the only key it accepts, or `undefined` for the shared store. */
  pipeline: (store: PetStore, key: string | undefined) => (request: MockRequest) => MockResponse;
  /** Pets read from a state file: the shared store's, and per key digest. */
  saved?: { pets?: readonly PetRecord[]; keys?: ReadonlyMap<string, readonly PetRecord[]> };
}

/**
 * The mock's data: one shared store, or with `isolate` one store per API key, created on the key's first
 * request from the starting pets (or the state file), so that parallel test workers sharing one mock, each
 * with its own key, never see each other's pets. Keys are held by SHA-256 digest.
 */
export class Stores {
  /** The store of the non-isolated mock (and, with `isolate`, unused by requests). */
  readonly shared: PetStore;
  private readonly sharedHandle: (request: MockRequest) => MockResponse;
  private readonly tenants = new Map<string, Tenant>();
  private readonly accepted: ReadonlySet<string> | undefined;

  constructor(private readonly options: StoresOptions) {
    this.shared = new PetStore(options.maxPets, options.saved?.pets ?? options.starting);
    this.sharedHandle = options.pipeline(this.shared, undefined);
    this.accepted = options.acceptedKeys === undefined ? undefined : new Set(options.acceptedKeys.map(keyDigest));
    // Saved keys get their store at once, so that the next write of the state file keeps them even if unused.
    for (const [digest, pets] of options.saved?.keys ?? []) {
      if (this.accepted === undefined || this.accepted.has(digest)) this.tenants.set(digest, { store: new PetStore(options.maxPets, pets) });
    }
  }

  /** Whether each API key has its own data. */
  get isolated(): boolean {
    return this.options.isolate;
  }

  /** The starting pets, which a reset restores. */
  get starting(): readonly PetRecord[] {
    return this.options.starting;
  }

  /**
   * The pipeline that answers a request: the shared one, or with `isolate` the one of the request's key
   * (the shared one answers a missing or refused key, with its 401). `'full'` when the key would need a
   * new store beyond {@link MAX_ISOLATED_KEYS} (the caller answers 429 `TOO_MANY_KEYS`).
   */
  handlerFor(request: MockRequest): ((request: MockRequest) => MockResponse) | 'full' {
    if (!this.options.isolate) return this.sharedHandle;
    const key = bearerToken(request.headers.authorization);
    const tenant = key === undefined ? undefined : this.tenant(key);
    if (tenant === 'full') return tenant;
    if (tenant === undefined) return this.sharedHandle;
    tenant.handle ??= this.options.pipeline(tenant.store, key);
    return tenant.handle;
  }

  /**
   * The data of an API key: with `isolate`, its own (created if the key is accepted), `undefined` for a key
   * that is refused, `'full'` beyond {@link MAX_ISOLATED_KEYS}; without `isolate`, `undefined`.
   */
  tenant(key: string): Tenant | 'full' | undefined {
    if (!this.options.isolate) return undefined;
    const digest = keyDigest(key);
    let tenant = this.tenants.get(digest);
    if (tenant === undefined) {
      if (this.accepted !== undefined && !this.accepted.has(digest)) return undefined;
      if (this.tenants.size >= MAX_ISOLATED_KEYS) return 'full';
      tenant = { store: new PetStore(this.options.maxPets, this.options.starting) };
      this.tenants.set(digest, tenant);
    }
    return tenant;
  }

  /** Every store with its key digest (`''` for the shared store): what a state file holds. */
  *all(): Iterable<[string, PetStore]> {
    yield ['', this.shared];
    for (const [digest, tenant] of this.tenants) yield [digest, tenant.store];
  }

  /** Restores the starting pets: in the shared store, and with `isolate` by forgetting every key's data. */
  reset(): void {
    this.shared.replace(this.options.starting);
    this.tenants.clear();
  }
}
