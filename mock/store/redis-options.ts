import type { ApiModel } from '../../model/model.js';
import type { StoreState } from './record-store.js';

/**
 * What the CLI and `createMock` need to know of the Redis store before connecting, without loading the Redis
 * client (the in-memory mock's start-up never pays for it).
 */

/** Default of `--store-timeout`: the longest a request waits for Redis before its 503 (README › Several replicas). */
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;

/** How the mock keeps its records in Redis (`--store redis://…`, `--store-prefix`, `--store-timeout`). */
export interface RedisStoreOptions {
  /** `redis://HOST:PORT[/DB]` (also `rediss://`, with credentials if any). */
  url: string;
  /** Key prefix of this mock's namespace (`--store-prefix`); default {@link defaultPrefix} of the spec. */
  prefix?: string | undefined;
  /** Milliseconds an operation may wait for Redis (`--store-timeout`); default {@link DEFAULT_STORE_TIMEOUT_MS}. */
  timeoutMs?: number | undefined;
  /** Called on each change of the store's state, with a sentence for the log. */
  onState?: ((state: StoreState, detail: string) => void) | undefined;
}

/** Whether a `--store` value names Redis (`redis://`, `rediss://`) rather than the in-memory store. */
export function isRedisUrl(store: string | undefined): store is string {
  return store !== undefined && /^rediss?:\/\/[^/]/i.test(store);
}

/**
 * The key prefix a spec's records get by default: its title in kebab case and its version
 * (`pet-store-service-animals-interface:1.0.0`), so that two specs never share records unless told to (`--store-prefix`).
 */
export function defaultPrefix(api: ApiModel): string {
  const title = api.title.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'api';
  return `${title}:${api.version || '0'}`;
}

/** A Redis URL without its password (`redis://user:***@host:6379/0`), fit for a log line. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
