import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ContentsManager } from '@jupyterlab/services';
import { startMock } from '../mock/index.js';
import { JUPYTER_LIFE, runJupyterLife, type JupyterStepOutcome } from './jupyter-life.js';
import { freePort } from './startup.js';
import { JUPYTER_SPEC, jupyterAbsent, startJupyter } from '../test/real/jupyter.js';

/**
 * `npm run bench:jupyter-life`: the contents life of bench/jupyter-life.ts, driven by `@jupyterlab/services`'
 * `ContentsManager` at its defaults, on three servers of Jupyter Server's description (the file Debian's
 * `python3-jupyter-server` installs): the real Jupyter Server 1.23 (Debian's, on a free port, fresh root), our mock
 * (`startMock`, in this process) and Prism 5.14.2 (`prism mock <file> -p <port>`, static answers). Each step is
 * scored apart; the counts and the step-by-step table are appended to bench/RESULTS.md.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** A contents manager at its defaults for the server at `baseUrl`, with `token` sent as `Authorization: token …`. */
async function contentsFor(baseUrl: string, token: string): Promise<ContentsManager> {
  const services = await import('@jupyterlab/services');
  return new services.ContentsManager({ serverSettings: services.ServerConnection.makeSettings({ baseUrl, token }) });
}

/** Prism on the description, on a free port; resolves once it answers any HTTP request, with a stop function. */
async function startPrism(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const cli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(process.execPath, [cli, 'mock', JUPYTER_SPEC, '-p', String(port), '-h', '127.0.0.1'], { stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      await fetch(`${baseUrl}/api/status`);
      return { baseUrl, stop };
    } catch {
      await sleep(100);
    }
  }
  await stop();
  throw new Error('Prism did not answer within 120 s');
}

async function main(): Promise<void> {
  const absent = jupyterAbsent();
  if (absent !== undefined) {
    process.stdout.write(`${absent}\n`);
    return;
  }
  const lives: Record<string, JupyterStepOutcome[] | string> = {};
  const loadStart = load();

  const real = await startJupyter({ token: 'bench-token' });
  try {
    lives['Jupyter Server 1.23 (real)'] = await runJupyterLife(await contentsFor(real.baseUrl, real.token));
  } finally {
    await real.close();
  }
  const mock = await startMock({ spec: JUPYTER_SPEC, port: 0 });
  try {
    lives['our mock'] = await runJupyterLife(await contentsFor(mock.baseUrl.replace(/\/$/, ''), 'bench-token'));
  } finally {
    await mock.close();
  }
  try {
    const prism = await startPrism();
    try {
      lives['Prism 5.14.2'] = await runJupyterLife(await contentsFor(prism.baseUrl, 'bench-token'));
    } finally {
      await prism.stop();
    }
  } catch (error) {
    lives['Prism 5.14.2'] = (error as Error).message;
  }

  const names = Object.keys(lives);
  const score = (name: string): string => {
    const outcomes = lives[name]!;
    return typeof outcomes === 'string' ? `not run (${outcomes})` : `**${outcomes.filter((one) => one.ok).length} of ${JUPYTER_LIFE.length}**`;
  };
  const cell = (name: string, at: number): string => {
    const outcomes = lives[name]!;
    const outcome = typeof outcomes === 'string' ? undefined : outcomes[at];
    return outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${(outcome.detail ?? '').slice(0, 140).replace(/\|/g, '\\|')}`;
  };
  const section = [
    '',
    '## Jupyter Server: one client life on the real server, our mock and Prism (`npm run bench:jupyter-life`)',
    '',
    `${new Date().toISOString()}; load average ${loadStart} at the start, ${load()} at the end. Description: \`${JUPYTER_SPEC}\` (Debian's \`python3-jupyter-server\`, Swagger 2.0), read where it is installed. Client: \`@jupyterlab/services\`' \`ContentsManager\` at its defaults. The steps are bench/jupyter-life.ts; the test/real/jupyter-life.test.ts gate holds the mock to every step the real server holds.`,
    '',
    `| server | steps held |`,
    `|---|---|`,
    ...names.map((name) => `| ${name} | ${score(name)} |`),
    '',
    `| step | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...JUPYTER_LIFE.map((step, at) => `| ${step.name.replace(/\|/g, '\\|')} | ${names.map((name) => cell(name, at)).join(' | ')} |`),
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

await main();
