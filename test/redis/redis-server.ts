import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server started by a test: its URL, and how to pause, resume, stop and start it again. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (database 0); `url(db)` for another database. */
  readonly url: string;
  dbUrl(db: number): string;
  /** SIGSTOP: the server keeps its connections but answers nothing (a stalled Redis). */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Stops the server (SIGTERM) and waits for it to exit; its data is gone (no persistence). */
  stop(): Promise<void>;
  /** Starts a server again on the same port, after {@link stop}. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory (end of the test file). */
  dispose(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, as the OS picks one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's `redis-server` on a free port of 127.0.0.1, without persistence (`--save ''
 * --appendonly no`), in a temporary directory removed by {@link TestRedis.dispose}. With `persistent`, every
 * write is appended and synced first (`--appendonly yes --appendfsync always`), so that a stop and
 * {@link TestRedis.restart} keep what Redis acknowledged. Errors: rejects when `redis-server` is not installed
 * (`apt-get install redis-server`, as .ci/run does) or does not start within 10 s. `port`: that port rather
 * than a free one (a mock told to use it before the server runs).
 */
export async function startRedis(options: { persistent?: boolean; port?: number } = {}): Promise<TestRedis> {
  if (options.port !== undefined) return startOn(options.port, options);
  // Another test file may take the free port first: then its redis-server answers there, not ours; try another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** The port was taken by another server between the pick and the start. */
class PortTaken extends Error {}

async function startOn(port: number, options: { persistent?: boolean }): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const persistence = options.persistent === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--loglevel', 'warning'], { stdio: ['ignore', 'ignore', 'ignore'] });
    child = started;
    let failure: Error | undefined;
    started.once('error', (error) => (failure = new Error(`cannot start redis-server (${error.message}); install it: apt-get install redis-server`)));
    const deadline = Date.now() + 10_000;
    // Ready when the server on the port is ours (its INFO names our child's pid), never another test's.
    for (let pid = await serverPid(port); pid !== started.pid; pid = await serverPid(port)) {
      if (failure !== undefined) throw failure;
      if (pid !== undefined || started.exitCode !== null) {
        started.kill('SIGKILL');
        throw new PortTaken(`port ${port} is taken by another server`);
      }
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const signal = (name: NodeJS.Signals): void => {
    child?.kill(name);
  };
  const stopChild = async (): Promise<void> => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dbUrl: (db) => `redis://127.0.0.1:${port}/${db}`,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    restart: launch,
    stop: stopChild,
    async dispose() {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The process id of the Redis answering on 127.0.0.1:`port` (`INFO server`), or `undefined` when none answers. */
function serverPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.once('error', () => resolve(undefined));
    socket.once('close', () => {
      const pid = /process_id:(\d+)/.exec(reply)?.[1];
      resolve(pid === undefined ? undefined : Number(pid));
    });
    socket.on('data', (data) => {
      reply += data.toString();
      if (/process_id:\d+\r\n/.test(reply)) socket.end();
    });
    socket.connect(port, '127.0.0.1', () => socket.write('INFO server\r\n'));
  });
}
