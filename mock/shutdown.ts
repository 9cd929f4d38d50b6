import type { Server } from 'node:http';

/** Work to finish before the process exits, such as writing the state file. May be async; errors are reported, not thrown. */
export type FlushHook = () => void | Promise<void>;

/** How {@link installShutdown} stops the process. Every field has a default. */
export interface ShutdownOptions {
  /** Most milliseconds in-flight requests get to finish; connections still open then are cut. Default 10,000. */
  graceMs?: number;
  /** Signals that start the shutdown. Default `SIGTERM` and `SIGINT`. */
  signals?: readonly NodeJS.Signals[];
  /** Run in order once no request is in flight (or the grace period is over), before exit. */
  hooks?: readonly FlushHook[];
  /** Called with one line per step (for the log); default nothing. */
  log?: (message: string) => void;
  /** Ends the process; default `process.exit`. Tests pass their own. */
  exit?: (code: number) => void;
}

/** A shutdown in place: `shutdown()` runs it without a signal; `dispose()` removes the signal listeners. */
export interface Shutdown {
  /** Stops accepting, drains, runs the hooks, then exits 0 (1 when a hook failed). Runs once; later calls share it. */
  shutdown(reason?: string): Promise<void>;
  dispose(): void;
}

/**
 * Graceful shutdown for the mock's server (the seed says nothing of operations): on SIGTERM or SIGINT
 * it stops accepting connections, lets requests in flight finish within `graceMs` (idle keep-alive
 * connections are closed at once and as soon as their answer is sent), then runs the flush hooks and exits 0.
 * A second signal during the drain cuts the remaining connections at once; the hooks still run.
 */
export function installShutdown(server: Server, options: ShutdownOptions = {}): Shutdown {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const log = options.log ?? ((): void => {});
  const exit = options.exit ?? ((code: number): void => process.exit(code));
  let running: Promise<void> | undefined;
  let hurry: (() => void) | undefined;

  const onSignal = (signal: NodeJS.Signals): void => {
    if (running !== undefined) {
      log(`${signal} again: closing the remaining connections now`);
      hurry?.();
      return;
    }
    void shutdown(signal);
  };

  function shutdown(reason = 'shutdown'): Promise<void> {
    running ??= (async () => {
      log(`${reason}: no new connections; waiting up to ${options.graceMs ?? 10_000} ms for requests in flight`);
      const drained = await drain(server, options.graceMs ?? 10_000, (cut) => (hurry = cut));
      if (!drained) log('grace period over: open connections were closed');
      let failed = false;
      for (const hook of options.hooks ?? []) {
        try {
          await hook();
        } catch (error) {
          failed = true;
          log(`flush failed: ${(error as Error).message}`);
        }
      }
      log('stopped');
      exit(failed ? 1 : 0);
    })();
    return running;
  }

  for (const signal of signals) process.on(signal, onSignal);
  return {
    shutdown,
    dispose: () => {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}

/** Event a draining server emits: answers that never end by themselves (the admin API's streams) end then. */
export const DRAINING = 'petstore:draining';

/**
 * Stops `server` accepting and resolves once every connection has closed: `true` when that happened within
 * `graceMs`, `false` when the remaining connections had to be cut. `onHurry` receives a function that cuts
 * them at once. Idle keep-alive connections are closed every 50 ms, so a connection closes right after its
 * last answer instead of waiting for its keep-alive timeout.
 */
export function drain(server: Server, graceMs: number, onHurry?: (cut: () => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (drained: boolean): void => {
      if (done) return;
      done = true;
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(drained);
    };
    const cut = (): void => {
      server.closeAllConnections();
      finish(false);
    };
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(cut, graceMs);
    onHurry?.(cut);
    if (!server.listening) {
      server.closeAllConnections();
      finish(true);
      return;
    }
    server.close(() => finish(true));
    server.emit(DRAINING);
    server.closeIdleConnections();
  });
}
