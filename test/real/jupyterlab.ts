import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealServer, type RealServer } from './server.js';

/**
 * JupyterLab Server as Debian ships it (`python3-jupyterlab-server`, 2.16): the server of JupyterLab's settings,
 * workspaces, themes, translations and licences, with its own OpenAPI 3.0 description (`rest-api.yml`) in the same
 * package. Its `LabServerApp` runs as an extension of Jupyter Server (`python3 -m jupyterlab_server`), started by
 * Debian's `/usr/bin/python3` on a free port. Every directory it reads or writes is a fresh temporary one (runtime,
 * configuration, data, the root it serves, workspaces, user and application settings), so nothing of the machine's
 * own set-up is read and every start begins with no workspace and no user setting. The settings' schemas are the
 * ones the package ships beside its code (`test_data/schemas`: five plugins of JupyterLab, among them
 * `@jupyterlab/unicode-extension:plugin`), read where they are installed.
 */

/** Debian's interpreter; never the first `python3` on the PATH (a pyenv or a virtualenv may lack Debian's modules). */
export const JUPYTERLAB_PYTHON = '/usr/bin/python3';
/** The package's installed directory. */
const PACKAGE = '/usr/lib/python3/dist-packages/jupyterlab_server';
/** The description the package ships (OpenAPI 3.0.3), read where it is installed, never copied into the tree. */
export const JUPYTERLAB_SPEC = join(PACKAGE, 'rest-api.yml');
/** The settings' schemas the package ships (one directory per npm package, one JSON Schema per plugin). */
export const JUPYTERLAB_SCHEMAS = join(PACKAGE, 'test_data', 'schemas');

/** `undefined` when Debian's JupyterLab Server is installed, otherwise the sentence a skipped test carries. */
export function jupyterlabAbsent(): string | undefined {
  if (!existsSync(JUPYTERLAB_PYTHON)) return `skipped: ${JUPYTERLAB_PYTHON} is absent`;
  if (!existsSync(JUPYTERLAB_SPEC)) return `skipped: ${JUPYTERLAB_SPEC} is absent (apt-get install python3-jupyterlab-server)`;
  return undefined;
}

/** A running JupyterLab Server: `baseUrl` is its origin (the description's paths start with `/lab/api`). */
export interface RunningJupyterLab {
  readonly baseUrl: string;
  /** The token the server wants as `Authorization: token <token>`; `''` when it checks none (nor an XSRF cookie). */
  readonly token: string;
  /** Everything the server wrote to stdout and stderr so far (its log), for a failure's message. */
  log(): string;
  /** Stops the server and removes its temporary directories; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts Debian's JupyterLab Server on a free port of 127.0.0.1 with `token` (`''`: no token and no XSRF check, for a
 * client that sends neither). Resolves once Jupyter Server's `GET /api` answers; throws, with the server's log, when
 * it exits first or does not answer within 30 s.
 */
export async function startJupyterLab(options: { token: string }): Promise<RunningJupyterLab> {
  const home = mkdtempSync(join(tmpdir(), 'jupyterlab-real-'));
  for (const dir of ['root', 'workspaces', 'user-settings', 'app-settings']) mkdirSync(join(home, dir));
  const args = (port: number): string[] => {
    const list = [
      '-m', 'jupyterlab_server',
      '--no-browser', '--allow-root',
      '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--ServerApp.port_retries=0',
      `--ServerApp.root_dir=${join(home, 'root')}`,
      `--ServerApp.token=${options.token}`, '--ServerApp.password=',
      `--LabServerApp.workspaces_dir=${join(home, 'workspaces')}`,
      `--LabServerApp.user_settings_dir=${join(home, 'user-settings')}`,
      `--LabServerApp.app_settings_dir=${join(home, 'app-settings')}`,
      `--LabServerApp.schemas_dir=${JUPYTERLAB_SCHEMAS}`,
    ];
    // Without a token the server would still refuse a write without an XSRF cookie, which the suite does not send.
    if (options.token === '') list.push('--ServerApp.disable_check_xsrf=True');
    return list;
  };
  let server: RealServer;
  try {
    server = await startRealServer({
      command: JUPYTERLAB_PYTHON,
      args,
      readyPath: '/api',
      env: {
        JUPYTER_RUNTIME_DIR: join(home, 'runtime'),
        JUPYTER_CONFIG_DIR: join(home, 'config'),
        JUPYTER_DATA_DIR: join(home, 'data'),
        JUPYTER_NO_CONFIG: '1',
        HOME: home,
        PYTHONPATH: '',
        PYTHONHOME: undefined,
      },
    });
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const close = async (): Promise<void> => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  };
  return { baseUrl: server.origin, token: options.token, log: () => server.output(), close };
}
