#!/usr/bin/env node
// Before `npm test`: some tests start real programs that npm does not ship, from Debian's packages (npm downloads
// no browser and no server): chromium (the browser tests), redis-server (the Redis store's replicas), openssl (a
// throwaway CA for the TLS tests), script (a terminal for the colour tests), prometheus-alertmanager,
// python3-jupyter-server and python3-jupyterlab-server (real servers the suite is run against; Jupyter's and
// JupyterLab's are found by the description each ships, in
// Debian's Python path, which another Python on PATH, such as pyenv's, does not read). Whatever is missing is installed
// with apt on a Debian machine run as root; otherwise this says which command to run, and the tests that need it
// will fail saying the same.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Program → the Debian package that ships it, and where the tests look for it. */
const NEEDED = [
  { program: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
  { program: 'redis-server', pkg: 'redis-server' },
  { program: 'openssl', pkg: 'openssl' },
  { program: 'script', pkg: 'bsdutils' },
  { program: 'prometheus-alertmanager', pkg: 'prometheus-alertmanager' },
  { program: '/usr/lib/python3/dist-packages/jupyter_server/services/api/api.yaml', pkg: 'python3-jupyter-server' },
  { program: '/usr/lib/python3/dist-packages/jupyterlab_server/rest-api.yml', pkg: 'python3-jupyterlab-server' },
];

const found = (program) => (program.startsWith('/') ? existsSync(program) : spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0);
const missing = NEEDED.filter(({ program }) => !found(program));
if (missing.length === 0) process.exit(0);

const packages = missing.map(({ pkg }) => pkg);
const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!canApt) {
  process.stderr.write(`pretest: ${missing.map(({ program }) => program).join(', ')} not found; the tests that need them will fail. Install them: sudo apt-get install ${packages.join(' ')}\n`);
  process.exit(0);
}
process.stdout.write(`pretest: installing Debian's ${packages.join(', ')} for the tests (apt-get install)…\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
