import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../bench/children.js';

/** A real server from a distribution's package, running as a child process on a loopback port. */
export interface RealServer {
  /** The server's root address, `http://127.0.0.1:<port>` (no API base path). */
  origin: string;
  /** The loopback port the server listens on. */
  port: number;
  /** Everything the server wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited; safe to call twice. */
  stop(): Promise<void>;
}

/** How to start one real server; {@link startRealServer} picks the port and hands it to `args`. */
export interface RealServerOptions {
  /** The program to run (an absolute path: another program of the same name on `PATH` must not shadow it). */
  command: string;
  /** The program's arguments for a server listening on `port` of 127.0.0.1. */
  args(port: number): string[];
  /** A path below the origin that answers 2xx once the server is ready (`/-/ready`). */
  readyPath: string;
  /** Milliseconds to wait for readiness; default 30,000. */
  readyTimeoutMs?: number;
  /** Extra environment for the child. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts a real server on a loopback port free at the time of the call (servers that cannot listen on port 0 and
 * report the port they chose need one picked for them), then polls `readyPath` every 50 ms until it answers 2xx.
 * Errors: rejects when the program exits before it is ready, or is not ready within `readyTimeoutMs`; the child is
 * killed and the message carries what it printed.
 */
export async function startRealServer(options: RealServerOptions): Promise<RealServer> {
  const port = await freePort();
  const child = spawn(options.command, options.args(port), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = (): Promise<void> => stopChild(child, exited);
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (gone) throw new Error(`${options.command} exited with ${child.exitCode ?? child.signalCode} before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.command} was not ready at ${origin}${options.readyPath} within ${options.readyTimeoutMs ?? 30_000} ms:\n${output}`);
    }
    try {
      const response = await fetch(`${origin}${options.readyPath}`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  return { origin, port, output: () => output, stop };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
  child.kill('SIGTERM');
  await exited;
  clearTimeout(force);
}
