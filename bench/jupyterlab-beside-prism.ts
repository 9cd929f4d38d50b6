import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMock } from '../mock/index.js';
import { JUPYTERLAB_LIFE, jupyterLabClients, runJupyterLabLife, type JupyterLabStepOutcome } from './jupyterlab-life.js';
import { freePort } from './startup.js';
import { JUPYTERLAB_SPEC, jupyterlabAbsent, startJupyterLab } from '../test/real/jupyterlab.js';

/**
 * `npm run bench:jupyterlab-life`: the workspaces and settings life of bench/jupyterlab-life.ts, driven by
 * `@jupyterlab/services`' `WorkspaceManager` and `SettingManager` at their defaults, on three servers of JupyterLab
 * Server's description (the file Debian's `python3-jupyterlab-server` installs): the real JupyterLab Server 2.16
 * (Debian's, on a free port, fresh directories), our mock (`startMock`, in this process) and Prism 5.14.2
 * (`prism mock <file> -p <port>`, static answers). Each step is scored apart; the counts and the step-by-step table
 * are appended to bench/RESULTS.md.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** Prism on the description, on a free port; resolves once it answers any HTTP request, with a stop function. */
async function startPrism(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const cli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(process.execPath, [cli, 'mock', JUPYTERLAB_SPEC, '-p', String(port), '-h', '127.0.0.1'], { stdio: 'ignore' });
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
      await fetch(`${baseUrl}/lab/api/settings/`);
      return { baseUrl, stop };
    } catch {
      await sleep(100);
    }
  }
  await stop();
  throw new Error('Prism did not answer within 120 s');
}

async function main(): Promise<void> {
  const absent = jupyterlabAbsent();
  if (absent !== undefined) {
    process.stdout.write(`${absent}\n`);
    return;
  }
  const lives: Record<string, JupyterLabStepOutcome[] | string> = {};
  const loadStart = load();

  const real = await startJupyterLab({ token: 'bench-token' });
  try {
    lives['JupyterLab Server 2.16 (real)'] = await runJupyterLabLife(await jupyterLabClients(real.baseUrl, real.token));
  } finally {
    await real.close();
  }
  const mock = await startMock({ spec: JUPYTERLAB_SPEC, port: 0 });
  try {
    lives['our mock'] = await runJupyterLabLife(await jupyterLabClients(mock.baseUrl.replace(/\/$/, ''), 'bench-token'));
  } finally {
    await mock.close();
  }
  try {
    const prism = await startPrism();
    try {
      lives['Prism 5.14.2'] = await runJupyterLabLife(await jupyterLabClients(prism.baseUrl, 'bench-token'));
    } finally {
      await prism.stop();
    }
  } catch (error) {
    lives['Prism 5.14.2'] = (error as Error).message;
  }

  const names = Object.keys(lives);
  const score = (name: string): string => {
    const outcomes = lives[name]!;
    return typeof outcomes === 'string' ? `not run (${outcomes})` : `**${outcomes.filter((one) => one.ok).length} of ${JUPYTERLAB_LIFE.length}**`;
  };
  const cell = (name: string, at: number): string => {
    const outcomes = lives[name]!;
    const outcome = typeof outcomes === 'string' ? undefined : outcomes[at];
    return outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${(outcome.detail ?? '').slice(0, 140).replace(/\|/g, '\\|').replace(/\n/g, ' ')}`;
  };
  const section = [
    '',
    '## JupyterLab Server: one client life on the real server, our mock and Prism (`npm run bench:jupyterlab-life`)',
    '',
    `${new Date().toISOString()}; load average ${loadStart} at the start, ${load()} at the end. Description: \`${JUPYTERLAB_SPEC}\` (Debian's \`python3-jupyterlab-server\`, OpenAPI 3.0.3), read where it is installed. Clients: \`@jupyterlab/services\`' \`WorkspaceManager\` and \`SettingManager\` at their defaults (application URL \`/lab\`). The steps are bench/jupyterlab-life.ts; the test/real/jupyterlab-life.test.ts gate holds the mock to every step the real server holds.`,
    '',
    `| server | steps held |`,
    `|---|---|`,
    ...names.map((name) => `| ${name} | ${score(name)} |`),
    '',
    `| step | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...JUPYTERLAB_LIFE.map((step, at) => `| ${step.name.replace(/\|/g, '\\|')} | ${names.map((name) => cell(name, at)).join(' | ')} |`),
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

await main();
