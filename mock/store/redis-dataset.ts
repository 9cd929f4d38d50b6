import { createHash } from 'node:crypto';
import type { ApiModel, ResourceModel } from '../../model/model.js';
import type { StartingData } from '../data.js';
import type { MockResponse } from '../messages.js';
import { STORE_RETRY_AFTER_SECONDS, storedFilters, storeView, type AnyRecordStore } from './record-store.js';
import { RedisConnection } from './redis-connection.js';
import { defaultPrefix, type RedisStoreOptions } from './redis-options.js';
import { RedisRecordStore, type NamespaceMeta } from './redis-store.js';

export type { RedisStoreOptions } from './redis-options.js';

/**
 * The Redis side of a mock (README › Several replicas): one connection, one key prefix, and the datasets of
 * the namespaces below it: `<prefix>:data:` for the shared records, `<prefix>:key:<sha256 of key>:` for each
 * API key's under `--isolate-by-key`. Each resource of a dataset is a {@link RedisRecordStore}.
 */
export class RedisBackend {
  readonly connection: RedisConnection;
  readonly prefix: string;

  private constructor(connection: RedisConnection, prefix: string) {
    this.connection = connection;
    this.prefix = prefix;
  }

  /**
   * Connects to Redis, waiting at most the store timeout. A Redis not reachable yet is no error: the connection
   * keeps trying by itself and requests get 503 meanwhile. Never rejects.
   */
  static async connect(api: ApiModel, options: RedisStoreOptions): Promise<RedisBackend> {
    const connection = new RedisConnection(options);
    // Not reachable yet: the replica starts all the same, answers 503 and keeps reconnecting (a replica may start before its Redis).
    await connection.connect().catch(() => undefined);
    return new RedisBackend(connection, options.prefix ?? defaultPrefix(api));
  }

  /** The key prefix of a namespace: the shared one (`digest` undefined), or an API key's (its SHA-256 digest). */
  namespace(digest: string | undefined): string {
    return digest === undefined ? `${this.prefix}:data:` : `${this.prefix}:key:${digest}:`;
  }

  /**
   * One store per resource of the spec in a namespace. `starting` is written only when the namespace holds nothing
   * yet; `examples`: whether those are the description's own examples, whose keys a client's create may take (D780).
   */
  dataset(api: ApiModel, digest: string | undefined, starting: StartingData, maxRecords: number, examples = false): Map<string, RedisRecordStore> {
    const base = this.namespace(digest);
    return new Map(
      api.resources.map((resource) => [
        resource.name,
        new RedisRecordStore(storeView(resource), this.connection, `${base}${resource.name}:`, maxRecords, starting.get(resource.name) ?? [], metaOf(api, storeView(resource)), examples),
      ]),
    );
  }

  /**
   * Initialises every store of a dataset (starting records into an empty namespace only) and says, for the
   * start-up log, where the records found were written by another spec (version or schema).
   * Errors: {@link StoreUnavailableError} when Redis does not answer.
   */
  async initialize(api: ApiModel, data: ReadonlyMap<string, AnyRecordStore>): Promise<string[]> {
    const notes: string[] = [];
    for (const store of data.values()) {
      if (!(store instanceof RedisRecordStore)) continue;
      const found = await store.initialize();
      const own = metaOf(api, store.resource);
      if (found === undefined || (found.version === own.version && found.fingerprint === own.fingerprint)) continue;
      const writer = `${found.title || 'a spec'} ${found.version || '(no version)'}`;
      notes.push(
        found.version !== own.version
          ? `the store ${this.connection.where} holds ${store.resource.name} written by ${writer}; this replica serves ${api.title} ${api.version}: the records are served as they are`
          : `the store ${this.connection.where} holds ${store.resource.name} written with another ${store.resource.name} schema of ${writer}: the records are served as they are`,
      );
    }
    return notes;
  }

  /** Drops the namespace of every API key (an admin reset under `--isolate-by-key`); the shared one is kept. */
  async dropKeyNamespaces(): Promise<number> {
    const pattern = `${this.prefix.replace(/[*?[\]\\]/g, '\\$&')}:key:*`;
    let dropped = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.connection.run(() => this.connection.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
      cursor = next;
      if (keys.length > 0) dropped += await this.connection.run(() => this.connection.client.unlink(...keys));
    } while (cursor !== '0');
    return dropped;
  }

  /**
   * The health endpoint's answer (README › Several replicas › Health): a `PING` within the store timeout;
   * 200 `{"status":"ok","store":"redis","state":"ready"}`, else 503 with `Retry-After` and the state
   * (`stalled`, `unreachable`, `connecting`) and why.
   */
  async health(): Promise<MockResponse> {
    const probe = await this.connection.probe();
    const ok = probe.state === 'ready';
    const body = { status: ok ? 'ok' : 'unavailable', store: 'redis', state: probe.state, where: this.connection.where, prefix: this.prefix, ...(ok ? {} : { detail: probe.detail }) };
    return { status: ok ? 200 : 503, headers: ok ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'retry-after': String(STORE_RETRY_AFTER_SECONDS) }, body: JSON.stringify(body) };
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.connection.close();
  }
}

/** What a namespace records about the spec that wrote a resource's records. */
function metaOf(api: ApiModel, resource: ResourceModel): NamespaceMeta {
  let schema: string;
  try {
    schema = JSON.stringify(resource.recordSchema);
  } catch {
    // A recursive schema (a `$ref` cycle, dereferenced) has no JSON text: its property names stand for it.
    schema = Object.keys(resource.properties).join(',');
  }
  const shape = JSON.stringify({ id: resource.idProperty, schema, filters: storedFilters(resource).map((filter) => filter.property) });
  return { title: api.title, version: api.version, fingerprint: createHash('sha256').update(shape).digest('hex').slice(0, 16) };
}
