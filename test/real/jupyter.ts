import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Jupyter Server as Debian ships it (`python3-jupyter-server`, 1.23), started on a free port for a test or a bench:
 * a real backend that nobody here wrote, with its own description in the same package. Debian's `/usr/bin/python3`
 * runs it, never the first `python3` on the PATH (a pyenv or a virtualenv may shadow Debian's and lack the module).
 * Its runtime, configuration and data directories and the root it serves are fresh temporary directories, so
 * nothing of the machine's own Jupyter set-up is read and every start begins with an empty root.
 */

/** Debian's interpreter and the package's files; the tests skip and say so when one is absent. */
export const JUPYTER_PYTHON = '/usr/bin/python3';
/** The description the package ships (Swagger 2.0), read where it is installed, never copied into the tree. */
export const JUPYTER_SPEC = '/usr/lib/python3/dist-packages/jupyter_server/services/api/api.yaml';

/** `undefined` when Debian's Jupyter Server is installed, otherwise the sentence a skipped test carries. */
export function jupyterAbsent(): string | undefined {
  if (!existsSync(JUPYTER_PYTHON)) return `skipped: ${JUPYTER_PYTHON} is absent`;
  if (!existsSync(JUPYTER_SPEC)) return `skipped: ${JUPYTER_SPEC} is absent (apt-get install python3-jupyter-server)`;
  return undefined;
}

/** How to start it: with `token` the server wants `Authorization: token <token>`; with `token: ''` it checks no token and no XSRF cookie. */
export interface JupyterOptions {
  token: string;
}

/** A running Jupyter Server: `baseUrl` is its origin (the description's base path is `/`), `root` the directory it serves. */
export interface RunningJupyter {
  readonly baseUrl: string;
  readonly token: string;
  readonly root: string;
  /** Everything the server wrote to stderr and stdout so far (its log), for a failure's message. */
  log(): string;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1: bound on port 0 and released (Jupyter takes a port number, not a listening socket). */
async function freePort(): Promise<number> {
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

/** Waits until `GET /api` answers (the server's version, no token needed), or throws with the log after `timeoutMs`. */
async function waitUntilServing(baseUrl: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Jupyter Server exited with ${child.exitCode}:\n${log()}`);
    try {
      const answer = await fetch(`${baseUrl}/api`);
      if (answer.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Jupyter Server did not answer GET /api within ${timeoutMs} ms:\n${log()}`);
}

/**
 * Starts Debian's Jupyter Server on a free port of 127.0.0.1 with a fresh, empty root directory. Throws, with the
 * server's log, when it does not answer within 30 s. `close()` stops it and removes its temporary directories.
 */
export async function startJupyter(options: JupyterOptions): Promise<RunningJupyter> {
  const home = mkdtempSync(join(tmpdir(), 'jupyter-real-'));
  const root = join(home, 'root');
  const port = await freePort();
  mkdirSync(root);
  const args = [
    '-m', 'jupyter_server',
    '--no-browser', '--allow-root',
    `--ServerApp.ip=127.0.0.1`, `--ServerApp.port=${port}`, '--ServerApp.port_retries=0',
    `--ServerApp.root_dir=${root}`,
    `--ServerApp.token=${options.token}`,
    '--ServerApp.password=',
  ];
  // Without a token the server would still refuse a write without an XSRF cookie; a client at its defaults sends none.
  if (options.token === '') args.push('--ServerApp.disable_check_xsrf=True');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JUPYTER_RUNTIME_DIR: join(home, 'runtime'),
    JUPYTER_CONFIG_DIR: join(home, 'config'),
    JUPYTER_DATA_DIR: join(home, 'data'),
    JUPYTER_NO_CONFIG: '1',
    HOME: home,
  };
  delete env['PYTHONPATH'];
  delete env['PYTHONHOME'];
  const child = spawn(JUPYTER_PYTHON, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(late);
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(baseUrl, child, () => output, 30_000);
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl, token: options.token, root, log: () => output, close };
}
