#!/usr/bin/env node
// Before `npm test`: the browser test needs Debian's Chromium (no browser is downloaded by npm).
// If it is missing and this is a Debian machine run as root, install it with apt; otherwise say how.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!canApt) {
  process.stderr.write(`pretest: ${CHROMIUM} not found; the browser test will fail. Install it: sudo apt-get install chromium (or set CHROMIUM_PATH).\n`);
  process.exit(0);
}
process.stdout.write("pretest: installing Debian's chromium for the browser test (apt-get install chromium)…\n");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
