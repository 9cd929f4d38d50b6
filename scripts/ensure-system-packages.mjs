#!/usr/bin/env node
// Within `npm test`, after the static checks and before the tests: some tests start real programs that npm does not ship, from Debian's packages (npm downloads
// no browser and no server): chromium (the browser tests), redis-server (the Redis store's replicas), openssl (a
// throwaway CA for the TLS tests), script (a terminal for the colour tests), prometheus-alertmanager,
// python3-jupyter-server and python3-jupyterlab-server (real servers the suite is run against; Jupyter's and
// JupyterLab's are found by the description each ships, in
// Debian's Python path, which another Python on PATH, such as pyenv's, does not read), docker.io (dockerd and its
// CLI, found at /usr/sbin/dockerd) and the Engine API's description from golang-github-docker-docker-dev (found at
// the path Debian installs it at; only that file is unpacked from the package, whose Go-source dependencies, 1.75 GB
// installed, no test uses). Whatever is missing is installed
// with apt on a Debian machine run as root; otherwise this says which command to run, and the tests that need it
// will fail saying the same. A CI that installs them in the background beforehand (.ci/run) holds the lock file
// SYSTEM_PACKAGES_LOCK (flock) meanwhile: with anything missing, this waits for that lock before it looks again, so
// the static checks run while apt works and two apt-gets never meet.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Engine API's description, as golang-github-docker-docker-dev installs it. */
const DOCKER_SPEC = '/usr/share/gocode/src/github.com/docker/docker/api/swagger.yaml';

/**
 * Program → the Debian package that ships it, and where the tests look for it. `onlyFile`: the tests need that one
 * file of the package, which is unpacked from the downloaded package rather than installed with its dependencies.
 */
const NEEDED = [
  { program: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
  { program: 'redis-server', pkg: 'redis-server' },
  { program: 'openssl', pkg: 'openssl' },
  { program: 'script', pkg: 'bsdutils' },
  { program: 'prometheus-alertmanager', pkg: 'prometheus-alertmanager' },
  { program: '/usr/lib/python3/dist-packages/jupyter_server/services/api/api.yaml', pkg: 'python3-jupyter-server' },
  { program: '/usr/lib/python3/dist-packages/jupyterlab_server/rest-api.yml', pkg: 'python3-jupyterlab-server' },
  { program: '/usr/sbin/dockerd', pkg: 'docker.io' },
  { program: DOCKER_SPEC, pkg: 'golang-github-docker-docker-dev', onlyFile: true },
];

/** The lock a background install holds (.ci/run); the same path there. */
const SYSTEM_PACKAGES_LOCK = join(tmpdir(), 'openapi-harness-system-packages.lock');

const found = (program) => (program.startsWith('/') ? existsSync(program) : spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0);
const lacking = () => NEEDED.filter(({ program }) => !found(program));
if (lacking().length === 0) process.exit(0);
// An install under way holds the lock; `flock` (util-linux) returns once it is free, at once when nothing holds it.
spawnSync('flock', [SYSTEM_PACKAGES_LOCK, 'true'], { stdio: 'ignore' });
const missing = lacking();
if (missing.length === 0) process.exit(0);

const packages = missing.map(({ pkg }) => pkg);
const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!canApt) {
  process.stderr.write(`system packages: ${missing.map(({ program }) => program).join(', ')} not found; the tests that need them will fail (or skip). Install them: sudo apt-get install ${packages.join(' ')}\n`);
  process.exit(0);
}
process.stdout.write(`system packages: installing Debian's ${packages.join(', ')} for the tests (apt-get install)…\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
const installed = missing.filter((need) => need.onlyFile !== true).map(({ pkg }) => pkg);
if (installed.length > 0) execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...installed], { stdio: ['ignore', 'ignore', 'inherit'], env });
for (const { program, pkg } of missing.filter((need) => need.onlyFile === true)) {
  // The package's one file the tests read, unpacked to where Debian installs it (`.${program}` inside the archive).
  const dir = mkdtempSync(join(tmpdir(), 'deb-'));
  try {
    execFileSync('apt-get', ['download', '-qq', pkg], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env });
    const deb = readdirSync(dir).find((name) => name.startsWith(`${pkg}_`) && name.endsWith('.deb'));
    if (deb === undefined) throw new Error(`apt-get download ${pkg} left no package in ${dir}`);
    execFileSync('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -x -C / "$2"', 'sh', join(dir, deb), `.${program}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
