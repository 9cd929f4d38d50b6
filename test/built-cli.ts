import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../mock/operations.js';

/** The compiled CLI, `npm start`'s `node dist/mock/cli.js`. */
export const CLI_PATH = join(PACKAGE_ROOT, 'dist', 'mock', 'cli.js');

/** Every compiled entry the CLI tests start: the mock's, the proxy's and the suite's. */
const BUILT_CLIS = [CLI_PATH, join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'), join(PACKAGE_ROOT, 'dist', 'explain', 'cli.js'), join(PACKAGE_ROOT, 'dist', 'proxy', 'cli.js'), join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js')];

/**
 * Builds `dist/` (tsc) when it is missing or older than a source file of the model, the judge, the mock, the suite
 * or the proxy, so CLI tests never run stale code. A type error elsewhere does not stop the emit (tsc emits anyway;
 * `npm run typecheck` is where types are judged), so these tests judge behaviour only. Errors: throws when a CLI is
 * still missing after the build.
 */
export function ensureBuilt(): void {
  const sources = ['cli', 'model', 'judge', 'mock', 'conformance', 'proxy', 'explain'].flatMap((dir) => readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' }).map((name) => join(PACKAGE_ROOT, dir, name)));
  const newest = Math.max(...sources.map((path) => statSync(path).mtimeMs));
  const builtAt = (path: string): number => (existsSync(path) ? statSync(path).mtimeMs : 0);
  if (Math.min(...BUILT_CLIS.map(builtAt)) >= newest) return;
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(PACKAGE_ROOT, 'tsconfig.build.json')], { encoding: 'utf8' });
  const missing = BUILT_CLIS.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`tsc did not produce ${missing.join(', ')}: ${result.stdout}${result.stderr}`);
}

/** A running `petstore-mock` child: its base URL from the banner, everything it printed, and how to stop it. */
export interface RunningCli {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  /** Sends a signal and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the CLI on a free port (`--port 0` unless `args` say otherwise) and waits for its banner (at most 10 s). */
export async function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI_PATH, '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 10 s: ${out}${err}`)), 10_000);
    const look = (): void => {
      const match = /serving (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before its banner: ${out}${err}`));
    });
  });
  return {
    child,
    baseUrl,
    stdout: () => out,
    stop: (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

/** Runs the CLI to its end (for `--help` and refused starts): exit code, stdout and stderr. At most 10 s. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`petstore-mock ${args.join(' ')} did not end within 10 s: ${stdout}${stderr}`));
    }, 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
