import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { StoreUnavailableError, type StoreState } from './record-store.js';
import { DEFAULT_STORE_TIMEOUT_MS, redactUrl, type RedisStoreOptions } from './redis-options.js';

/** How to reach Redis: the `--store` URL, the timeout, and who hears of state changes (the log); the prefix is not its concern. */
export type RedisConnectionOptions = Omit<RedisStoreOptions, 'prefix'>;

/** Replies of Redis that mean "not now" rather than a bug of a script: answered as 503 like a lost connection. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|MISCONF|NOREPLICAS)\b/;

/**
 * One connection to Redis shared by every store of a mock (ioredis; its commands are pipelined on the one
 * socket, answers in order). Operations are never queued while disconnected and never resent after a reconnect, so a
 * write is applied at most once and only while the client waits for it; a request waits for the connection at
 * most `timeoutMs`, then gets {@link StoreUnavailableError}. ioredis reconnects by itself (every 100 ms to 1 s).
 */
export class RedisConnection {
  readonly client: Redis;
  readonly timeoutMs: number;
  /** The URL without its password, for messages. */
  readonly where: string;
  private current: StoreState = 'connecting';
  private readyWaiters: (() => void)[] = [];
  private readonly shas = new Map<string, string>();

  constructor(private readonly options: RedisConnectionOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    this.where = redactUrl(options.url);
    this.client = new Redis(options.url, {
      lazyConnect: true,
      // Measured: auto-pipelining cost more CPU per request than the writes it saves (bench/RESULTS.md).
      enableAutoPipelining: false,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: this.timeoutMs,
      connectTimeout: this.timeoutMs,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    this.client.on('ready', () => {
      this.setState('ready', `store reachable: ${this.where}`);
      for (const wake of this.readyWaiters.splice(0)) wake();
    });
    // An 'error' event without a listener would crash the process; a lost connection is a state, not a crash.
    this.client.on('error', (error: Error) => this.setState('unreachable', `store unreachable: ${this.where} (${error.message}); answering 503 until it returns`));
    this.client.on('close', () => this.setState('unreachable', `store connection lost: ${this.where}; reconnecting, answering 503 meanwhile`));
  }

  /** The store's state now (README › Several replicas › health). */
  get state(): StoreState {
    return this.current;
  }

  /** Connects, waiting at most `timeoutMs`. Errors: {@link StoreUnavailableError} naming the URL. */
  async connect(): Promise<void> {
    const connecting = this.client.connect().catch(() => undefined);
    await this.run(() => connecting.then(() => this.client.ping()));
  }

  /**
   * Runs one operation against Redis: at once when connected, else after the connection is back, at most
   * `timeoutMs` in all. Errors: {@link StoreUnavailableError} when Redis is unreachable, stalled or refuses
   * for now; any other error (a script's bug) as it is.
   */
  run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.client.status === 'ready') return operation().then(this.succeeded, this.failed);
    // Not connected: wait for the connection, at most the timeout. An operation whose request already got its 503
    // is never sent afterwards (a create answered 503 must not be applied later).
    return new Promise<T>((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        operation().then(this.succeeded, this.failed).then(resolve, reject);
      };
      const timer = setTimeout(() => {
        this.readyWaiters.splice(this.readyWaiters.indexOf(wake) >>> 0, 1);
        reject(new StoreUnavailableError(this.current, `the store (${this.where}) is ${this.current}: no connection within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.readyWaiters.push(wake);
    });
  }

  /**
   * Runs a Lua script by its SHA-1 (`EVALSHA`), sending its text once when Redis does not know it yet
   * (after a restart of Redis, `NOSCRIPT`). `args` become ARGV; the scripts take no KEYS (one Redis, not a cluster).
   */
  async script(source: string, args: readonly (string | number)[]): Promise<unknown> {
    let sha = this.shas.get(source);
    if (sha === undefined) this.shas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
    try {
      return await this.client.evalsha(sha, 0, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return this.client.eval(source, 0, ...args);
      throw error;
    }
  }

  /**
   * Asks Redis for a `PING` within the timeout: the health endpoint's probe. While disconnected it answers at
   * once (a load balancer's probe should not wait for a reconnect). Never throws.
   */
  async probe(): Promise<{ state: StoreState; detail: string }> {
    if (this.client.status !== 'ready') return { state: this.current === 'ready' ? 'connecting' : this.current, detail: `no connection to the store (${this.where}); reconnecting` };
    try {
      await this.run(() => this.client.ping());
      return { state: 'ready', detail: `store reachable: ${this.where}` };
    } catch (error) {
      return { state: this.current === 'ready' ? 'stalled' : this.current, detail: (error as Error).message };
    }
  }

  /** Closes the connection (no reconnect after it). */
  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    this.client.removeAllListeners('error');
    this.client.on('error', () => undefined);
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private readonly succeeded = <T>(value: T): T => {
    if (this.current !== 'ready' && this.client.status === 'ready') this.setState('ready', `store answering again: ${this.where}`);
    return value;
  };

  private readonly failed = (error: unknown): never => {
    if (error instanceof StoreUnavailableError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && error.name === 'ReplyError' && !TRANSIENT_REPLY.test(message)) throw error;
    const state: StoreState = this.client.status === 'ready' ? 'stalled' : this.current === 'ready' ? 'unreachable' : this.current;
    if (state === 'stalled') this.setState('stalled', `store stalled: ${this.where} did not answer within ${this.timeoutMs} ms; answering 503`);
    throw new StoreUnavailableError(state, `the store (${this.where}) is ${state}: ${message}`);
  };

  private setState(state: StoreState, detail: string): void {
    if (state === this.current) return;
    this.current = state;
    this.options.onState?.(state, detail);
  }
}
