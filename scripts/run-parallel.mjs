#!/usr/bin/env node
// Runs the npm scripts named as arguments at the same time (`node scripts/run-parallel.mjs lint:spec typecheck lint`),
// for `npm test`'s build and static checks: each is one single-threaded process (tsc, spectral, eslint), so one after the
// other they leave a core idle. Each script's output is printed whole when it ends, under its name, so outputs never
// interleave. Exit code: 0 when every script exited 0, else 1 after all have ended (every failure is shown at once).
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs <npm script>...\n');
  process.exit(2);
}

/** Runs `npm run <name>`; resolves with its exit code (1 when it could not start or was killed) and its output. */
const run = (name) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const started = performance.now();
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const output = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(`== npm run ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}, ${seconds} s\n${output}${output === '' || output.endsWith('\n') ? '' : '\n'}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all(names.map(run));
const failed = names.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.map((name) => `npm run ${name}`).join(', ')}\n`);
  process.exit(1);
}
