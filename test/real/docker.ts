import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealServer, type RealServer } from './server.js';

/** Debian's `docker.io` (20.10): the Engine's daemon. */
export const DOCKERD_BIN = '/usr/sbin/dockerd';
/**
 * Debian's command-line client of the same package. Always by this absolute path: another `docker` (a newer one in
 * `/usr/local/bin`) may come first on the `PATH` of a developer's machine.
 */
export const DOCKER_BIN = '/usr/bin/docker';
/**
 * The Engine API's description as Debian's `golang-github-docker-docker-dev` installs it (Swagger 2.0, API v1.41,
 * base path `/v1.41`), read where it is installed, never copied into the tree.
 */
export const DOCKER_SPEC = '/usr/share/gocode/src/github.com/docker/docker/api/swagger.yaml';

/** `undefined` when the daemon, its client and the description are all here, otherwise the sentence a skipped test carries. */
export function dockerAbsent(): string | undefined {
  if (process.getuid?.() !== 0) return 'skipped: dockerd needs root';
  for (const [path, pkg] of [[DOCKERD_BIN, 'docker.io'], [DOCKER_BIN, 'docker.io'], [DOCKER_SPEC, 'golang-github-docker-docker-dev']] as const) {
    if (!existsSync(path)) return `skipped: ${path} is absent (apt-get install ${pkg})`;
  }
  return undefined;
}

/** A running dockerd: its origin (the CLI's `DOCKER_HOST` is `tcp://127.0.0.1:<port>`) and its API base. */
export interface RunningDockerd extends RealServer {
  /** `http://127.0.0.1:<port>/v1.41`, the description's base path on the daemon. */
  apiBase: string;
}

/**
 * Starts Debian's dockerd on a free loopback port with everything it keeps under a fresh temporary directory (data
 * root, exec root, pid file, its own unix socket, and the containerd it starts as its child), with no change to the
 * machine's network (no iptables rules, no default bridge) and the `vfs` storage driver (no kernel overlay needed).
 * Waits for `GET /_ping`. `stop()` sends SIGTERM (dockerd stops its containerd and unmounts its data root), then
 * unmounts the data root itself if a killed daemon left it mounted, and removes the directory.
 * Errors: as {@link startRealServer}.
 */
export async function startDockerd(): Promise<RunningDockerd> {
  const dir = await mkdtemp(join(tmpdir(), 'dockerd-'));
  const cleanUp = async (): Promise<void> => {
    await unmountLeftovers(dir);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const server = await startRealServer({
      command: DOCKERD_BIN,
      args: (port) => [
        `--data-root=${join(dir, 'root')}`, `--exec-root=${join(dir, 'exec')}`, `--pidfile=${join(dir, 'dockerd.pid')}`,
        `-H=tcp://127.0.0.1:${port}`, `-H=unix://${join(dir, 'dockerd.sock')}`,
        '--iptables=false', '--ip6tables=false', '--bridge=none', '--storage-driver=vfs', '--log-level=warn',
      ],
      readyPath: '/_ping',
    });
    return {
      ...server,
      apiBase: `${server.origin}/v1.41`,
      async stop() {
        await server.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Unmounts whatever is still mounted below `dir` (deepest first); a daemon stopped by SIGTERM leaves nothing. */
async function unmountLeftovers(dir: string): Promise<void> {
  const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '').filter((point) => point.startsWith(`${dir}/`));
  for (const point of mounts.sort((a, b) => b.length - a.length)) {
    await new Promise<void>((resolve) => execFile('umount', ['-l', point], () => resolve()));
  }
}
