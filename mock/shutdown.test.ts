import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/built-cli.js';
import { DEFAULT_API_KEY } from './index.js';
import { PACKAGE_ROOT } from './operations.js';

/**
 * Graceful shutdown: SIGTERM or SIGINT to `node dist/mock/cli.js` while a request is in flight lets it
 * finish, writes the state file, and exits 0; a request slower than `--shutdown-grace` is cut and the process
 * still exits in time. The CLI is built first when dist/ is stale (test/built-cli.ts `ensureBuilt`).
 */

const CLI = join(PACKAGE_ROOT, 'dist', 'mock', 'cli.js');
const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };

interface Child {
  process: ChildProcess;
  baseUrl: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  output: () => string;
}

let dir: string;

beforeAll(() => {
  try {
    ensureBuilt();
  } catch {
    // tsc exits non-zero on a type error anywhere in the tree, yet still emits: the check below is what matters.
  }
  expect(existsSync(CLI)).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'petstore-shutdown-'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startCli(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--log-format', 'json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let signalledAt = 0;
  const kill = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    signalledAt = performance.now();
    return kill(signal);
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, ms: performance.now() - signalledAt })),
  );
  const started = performance.now();
  while (!/serving (http:\/\/\S+)/.test(output)) {
    if (child.exitCode !== null || performance.now() - started > 15_000) throw new Error(`the mock did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { process: child, baseUrl: /serving (http:\/\/\S+)/.exec(output)![1]!, exited, output: () => output };
}

describe('graceful shutdown of the CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s during an in-flight create: the request finishes, the state file holds it, exit 0', async (signal) => {
    const stateFile = join(dir, `${signal}.json`);
    const child = await startCli(['--latency', '700', '--state-file', stateFile, '--shutdown-grace', '5000']);
    try {
      const inFlight = request(`${child.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: `{"name":"Last-${signal}","categoryId":42}`,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.process.kill(signal);
      const response = await inFlight;
      expect(response.statusCode).toBe(201);
      const pet = (await response.body.json()) as { id: number; name: string };
      const exit = await child.exited;
      expect(exit, child.output()).toMatchObject({ code: 0, signal: null });
      expect(exit.ms).toBeLessThan(5_000);
      const saved = readFileSync(stateFile, 'utf8');
      expect(saved).toContain(`"name":"Last-${signal}"`);
      expect(saved).toContain(`"id":${pet.id}`);
    } finally {
      child.process.kill('SIGKILL');
    }
  });

  it('new connections are refused once the shutdown started', async () => {
    const child = await startCli(['--latency', '600']);
    try {
      const inFlight = request(`${child.baseUrl}/pets`, { headers: AUTH });
      await new Promise((resolve) => setTimeout(resolve, 150));
      child.process.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(request(`${child.baseUrl}/pets`, { headers: AUTH, reset: true })).rejects.toThrow();
      expect((await inFlight).statusCode).toBe(200);
      expect((await child.exited).code).toBe(0);
    } finally {
      child.process.kill('SIGKILL');
    }
  });

  it('a request slower than --shutdown-grace is cut, and the process exits 0 in time', async () => {
    const child = await startCli(['--latency', '20000', '--shutdown-grace', '300']);
    try {
      const inFlight = request(`${child.baseUrl}/pets`, { headers: AUTH }).then(
        (response) => response.statusCode,
        () => 'cut',
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      child.process.kill('SIGTERM');
      const exit = await child.exited;
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(3_000);
      expect(await inFlight).toBe('cut');
    } finally {
      child.process.kill('SIGKILL');
    }
  });

  it('an idle mock exits at once', async () => {
    const child = await startCli([]);
    try {
      // A keep-alive connection left open must not hold the shutdown for its keep-alive timeout.
      await (await request(`${child.baseUrl}/pets`, { headers: AUTH })).body.text();
      child.process.kill('SIGTERM');
      const exit = await child.exited;
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(1_500);
    } finally {
      child.process.kill('SIGKILL');
    }
  });
});
