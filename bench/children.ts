import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server under test, in its own child process (so its CPU and RSS are apart from the load generator). */
export interface Target {
  name: string;
  /** Base address that `/pets` is appended to: `http://127.0.0.1:<port>/v1`, or without `/v1` for Prism. */
  base: string;
  child: ChildProcess;
  /** Resident set size of the child in bytes, after a forced GC when the child supports it. */
  rss(): Promise<number>;
  stop(): Promise<void>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

/** Forks `dist/bench/<script>.js` with `--expose-gc` and waits for its `{ port }` message (at most 120 s). */
export async function forkTarget(name: string, script: string, args: string[] = []): Promise<Target> {
  const child = fork(join(HERE, `${script}.js`), args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no port after 120 s`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${name}: exited with ${code} before listening`)));
    child.on('message', (message: { port?: number | string }) => {
      if (message.port === undefined) return;
      clearTimeout(timer);
      resolve(String(message.port));
    });
  });
  const rss = (): Promise<number> =>
    new Promise((resolve) => {
      const onMessage = (message: { rss?: number }): void => {
        if (message.rss === undefined) return;
        child.off('message', onMessage);
        resolve(message.rss);
      };
      child.on('message', onMessage);
      child.send('rss');
    });
  return { name, base: `http://127.0.0.1:${port}/v1`, child, rss, stop: () => stopChild(child) };
}

/**
 * Starts `prism mock spec/openapi.yaml` (Prism 5.14.2) with logging silenced (`-v silent`) and waits until
 * `GET <probe>` answers (at most 60 s). Prism serves the spec's paths without the `/v1` of the server URL.
 */
export async function startPrism(probePath: string, headers: Record<string, string>): Promise<Target> {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', '.bin', 'prism');
  const child = spawn(bin, ['mock', join(ROOT, 'spec', 'openapi.yaml'), '-p', String(port), '-h', '127.0.0.1', '--errors=false', '-v', 'silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const base = `http://127.0.0.1:${port}`;
  await firstOk(`${base}${probePath}`, headers, 60_000);
  return { name: 'prism', base, child, rss: async () => procRss(child.pid), stop: () => stopChild(child) };
}

/** Milliseconds until `GET url` first answers 2xx, polling every 5 ms; rejects after `timeoutMs`. */
export async function firstOk(url: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.ok) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  throw new Error(`${url}: no 2xx within ${timeoutMs} ms`);
}

/** A TCP port free on 127.0.0.1 at the time of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Stops a child process and resolves when it has exited (SIGTERM, then SIGKILL after 5 s). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** CPU seconds (user + system) a process has used so far, from `/proc/<pid>/stat` (Linux; 0 elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function procRss(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}
