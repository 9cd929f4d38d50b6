import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMock } from '../mock/index.js';
import type { StepOutcome } from './life-steps.js';
import { freePort } from './startup.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const PRISM = 'Prism 5.14.2';
const TOKEN = 'bench-token';
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * A client life to run on a real server, our mock and Prism, each from the same description: the makers' client
 * (`client`, at its defaults, for a base URL and a token sent as its server wants) drives `run` through `steps`.
 */
export interface LifeBench<Client> {
  /** The section's heading in bench/RESULTS.md. */
  heading: string;
  /** The paragraph after the date: the description, its package and the client. */
  about: string;
  /** The description's path, as its package installs it. */
  spec: string;
  /** A path Prism answers once it is up (any status). */
  probePath: string;
  steps: readonly { name: string }[];
  /** Why the real server cannot run here, or `undefined`. */
  absent(): string | undefined;
  /** The real server's label in the tables, and how it starts on a free port with `token`. */
  real: { label: string; start(token: string): Promise<{ baseUrl: string; token: string; close(): Promise<void> }> };
  client(baseUrl: string, token: string): Promise<Client>;
  run(client: Client): Promise<StepOutcome[]>;
}

/** Prism on `spec`, on a free port; resolves once it answers `probePath` with any status, with a stop function. */
async function startPrism(spec: string, probePath: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const cli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(process.execPath, [cli, 'mock', spec, '-p', String(port), '-h', '127.0.0.1'], { stdio: 'ignore' });
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
      await fetch(`${baseUrl}${probePath}`);
      return { baseUrl, stop };
    } catch {
      await sleep(100);
    }
  }
  await stop();
  throw new Error('Prism did not answer within 120 s');
}

/** Runs the life against a server started by `start`, always stopping it; a server that cannot start, or a life that throws, is scored by its error. */
async function lifeOn<Client>(bench: LifeBench<Client>, start: () => Promise<{ baseUrl: string; token: string; close(): Promise<void> }>): Promise<StepOutcome[] | string> {
  let server: Awaited<ReturnType<typeof start>>;
  try {
    server = await start();
  } catch (error) {
    return (error as Error).message;
  }
  try {
    return await bench.run(await bench.client(server.baseUrl, server.token));
  } catch (error) {
    return (error as Error).message;
  } finally {
    await server.close();
  }
}

/**
 * Runs a client life (see {@link LifeBench}) on the real server, our mock (`startMock`, in this process) and Prism
 * (`prism mock <file> -p <port>`, static answers); each step is scored apart, and the counts and the step-by-step
 * table are appended to bench/RESULTS.md and printed. Prints why and returns when the real server is absent.
 */
export async function lifeBesidePrism<Client>(bench: LifeBench<Client>): Promise<void> {
  const absent = bench.absent();
  if (absent !== undefined) {
    process.stdout.write(`${absent}\n`);
    return;
  }
  const loadStart = load();
  const lives: Record<string, StepOutcome[] | string> = {};
  lives[bench.real.label] = await lifeOn(bench, () => bench.real.start(TOKEN));
  lives['our mock'] = await lifeOn(bench, async () => {
    const mock = await startMock({ spec: bench.spec, port: 0 });
    return { baseUrl: mock.baseUrl.replace(/\/$/, ''), token: TOKEN, close: () => mock.close() };
  });
  lives[PRISM] = await lifeOn(bench, async () => {
    const prism = await startPrism(bench.spec, bench.probePath);
    return { baseUrl: prism.baseUrl, token: TOKEN, close: prism.stop };
  });

  const names = Object.keys(lives);
  const score = (name: string): string => {
    const outcomes = lives[name]!;
    return typeof outcomes === 'string' ? `not run (${outcomes})` : `**${outcomes.filter((one) => one.ok).length} of ${bench.steps.length}**`;
  };
  const cell = (name: string, at: number): string => {
    const outcomes = lives[name]!;
    const outcome = typeof outcomes === 'string' ? undefined : outcomes[at];
    return outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${(outcome.detail ?? '').slice(0, 140).replace(/\|/g, '\\|').replace(/\n/g, ' ')}`;
  };
  const section = [
    '',
    bench.heading,
    '',
    `${new Date().toISOString()}; load average ${loadStart} at the start, ${load()} at the end. ${bench.about}`,
    '',
    `| server | steps held |`,
    `|---|---|`,
    ...names.map((name) => `| ${name} | ${score(name)} |`),
    '',
    `| step | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...bench.steps.map((step, at) => `| ${step.name.replace(/\|/g, '\\|')} | ${names.map((name) => cell(name, at)).join(' | ')} |`),
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}
