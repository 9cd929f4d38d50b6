import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Octokit } from '@octokit/rest';
import { LIFE, runLife, type StepOutcome } from './octokit-life.js';
import { freePort } from './startup.js';

/**
 * `npm run bench:github-prism`: our mock and Prism 5.14.2 (`prism mock <file> -p <port>`, static answers, its
 * default logging) started as a user starts them on GitHub's description as published (`@octokit/openapi`'s
 * non-dereferenced `api.github.com.json`, 13 MB), fresh processes, interleaved.
 *
 * Start-up, per start: wall time from `spawn` to the first HTTP answer (any status) of `GET /user` sent with
 * Octokit's default `Accept: application/vnd.github.v3+json`, polled every 25 ms; the CPU time (user + system,
 * `/proc/<pid>/stat`, children reaped or alive included) the process tree spent until then, which a loaded machine
 * does not inflate; the peak RSS (`VmHWM`, summed over the tree) right after.
 *
 * Life: on each server's last start, the steps of bench/octokit-life.ts through `@octokit/rest` at its defaults,
 * then (Prism answers 406 to Octokit's media type, having no example for it) a second life with every request's
 * `Accept` set to `application/json`, each on a repository of its own. Each step scores whether the answer is what
 * GitHub documents. Appended to bench/RESULTS.md with the load average around each phase.
 *
 * Options: `--rounds N` starts of ours (5), `--prism-rounds N` starts of Prism (3; each takes 6-20 s and 300+ MB),
 * `--limit S` seconds to wait for a first answer (180).
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const ROUNDS = option('--rounds', 5);
const PRISM_ROUNDS = option('--prism-rounds', 3);
const LIMIT_MS = option('--limit', 180) * 1000;
/** What `@octokit/rest` sends when nothing overrides it (D140). */
const OCTOKIT_ACCEPT = 'application/vnd.github.v3+json';
/** Clock ticks a second of `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on Linux as built). */
const TICKS_MS = 10;

/** One process of the tree as `/proc/<pid>/stat` shows it: parent, own CPU and the CPU of its reaped children, in ticks. */
interface ProcStat {
  pid: number;
  ppid: number;
  ticks: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/** The pids of `root` and of every live descendant (Linux `/proc`). */
function tree(root: number): number[] {
  const all = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map((name) => readStat(Number(name))).filter((stat): stat is ProcStat => stat !== undefined);
  const pids = [root];
  for (let at = 0; at < pids.length; at++) for (const stat of all) if (stat.ppid === pids[at]) pids.push(stat.pid);
  return pids;
}

/** CPU time (user + system) of the tree under `root`, in ms: live processes, plus what reaped children left in their parents. */
function treeCpuMs(root: number): number {
  return tree(root).reduce((sum, pid) => sum + (readStat(pid)?.ticks ?? 0) * TICKS_MS, 0);
}

/** Peak resident set (`VmHWM`) summed over the live tree under `root`, in MB. */
function treePeakRssMb(root: number): number {
  let kb = 0;
  for (const pid of tree(root)) {
    try {
      kb += Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return Math.round(kb / 1024);
}

/** One start: its figures, and the live server when the caller keeps it. */
interface Start {
  ms: number;
  cpuMs: number;
  rssMb: number;
  status: number;
  base: string;
  child: ChildProcess;
}

/** Spawns `node <args>` and polls `GET <base>/user` until any HTTP answer; throws when the process exits first or {@link LIMIT_MS} passes. */
async function start(args: string[], base: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4_000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  while (performance.now() - started < LIMIT_MS && !exited) {
    try {
      const response = await fetch(`${base}/user`, { headers: { accept: OCTOKIT_ACCEPT }, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      const ms = Math.round(performance.now() - started);
      return { ms, cpuMs: treeCpuMs(child.pid!), rssMb: treePeakRssMb(child.pid!), status: response.status, base, child };
    } catch {
      await sleep(25);
    }
  }
  await stop(child);
  throw new Error(`${args.slice(0, 2).join(' ')}: ${exited ? `exited before answering: ${stderr}` : `no answer within ${LIMIT_MS} ms`}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/** One life's score and cost. */
interface Life {
  outcomes: StepOutcome[];
  ms: number;
  cpuMs: number;
  rssMb: number;
}

/** Runs the life against `server` through `@octokit/rest`, at its defaults or with `Accept: application/json` on every request. */
async function life(server: Start, repo: string, acceptJson: boolean): Promise<Life> {
  const { Octokit: Client } = (await import('@octokit/rest')) as { Octokit: typeof Octokit };
  // A bound on each call so that a server that never answers costs a step, not the run; and no call leaves the server
  // under test (a `Link` that names another host, as an example's may, is refused). Nothing else changes on the wire.
  const timed: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${server.base}/`)) throw new Error(`refused to follow ${url.slice(0, 80)} off the server`);
    return fetch(input, { ...init, signal: AbortSignal.timeout(60_000) });
  };
  const octokit = new Client({ auth: 'ghs_installation-token', baseUrl: server.base, request: { fetch: timed }, log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } });
  if (acceptJson) octokit.hook.before('request', (options) => void (options.headers.accept = 'application/json'));
  const cpuBefore = treeCpuMs(server.child.pid!);
  const started = performance.now();
  const outcomes = await runLife(octokit, repo);
  return { outcomes, ms: Math.round(performance.now() - started), cpuMs: treeCpuMs(server.child.pid!) - cpuBefore, rssMb: treePeakRssMb(server.child.pid!) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  let spec: string;
  try {
    spec = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    createRequire(import.meta.url).resolve('@octokit/rest');
  } catch {
    process.stdout.write('skipped: @octokit/openapi or @octokit/rest is not installed\n');
    return;
  }
  const mockCli = join(ROOT, 'dist', 'mock', 'cli.js');
  const prismCli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const servers = {
    ours: { args: (port: number) => [mockCli, '--spec', spec, '--port', String(port), '--log-level', 'warn', '--log-format', 'json'], rounds: ROUNDS, starts: [] as Start[], failures: [] as string[] },
    prism: { args: (port: number) => [prismCli, 'mock', spec, '-p', String(port), '-h', '127.0.0.1'], rounds: PRISM_ROUNDS, starts: [] as Start[], failures: [] as string[] },
  };
  const lives: Record<string, Life> = {};
  const loadStart = load();
  const began = Date.now();
  for (let round = 0; round < Math.max(ROUNDS, PRISM_ROUNDS); round++) {
    for (const [name, server] of Object.entries(servers)) {
      if (round >= server.rounds) continue;
      const port = await freePort();
      let started: Start;
      try {
        started = await start(server.args(port), `http://127.0.0.1:${port}`);
      } catch (error) {
        server.failures.push((error as Error).message.slice(0, 300));
        process.stdout.write(`${name} start ${round + 1}: ${server.failures.at(-1)}\n`);
        continue;
      }
      server.starts.push(started);
      process.stdout.write(`${name} start ${round + 1}: ${started.ms} ms wall, ${started.cpuMs} ms CPU, ${started.rssMb} MB, status ${started.status} (load ${load()})\n`);
      try {
        if (round === server.rounds - 1) {
          for (const acceptJson of [false, true]) {
            const key = `${name}${acceptJson ? ' json' : ''}`;
            lives[key] = await life(started, acceptJson ? 'life-accept-json' : 'life-defaults', acceptJson);
            process.stdout.write(`${key} life: ${lives[key].outcomes.filter((o) => o.ok).length}/${LIFE.length} in ${lives[key].ms} ms (CPU ${lives[key].cpuMs} ms), ${lives[key].rssMb} MB (load ${load()})\n`);
          }
        }
      } finally {
        await stop(started.child);
      }
    }
  }
  const loadEnd = load();
  const minutes = ((Date.now() - began) / 60_000).toFixed(1);
  const startRow = (name: string, server: { starts: Start[]; failures: string[]; rounds: number }): string => {
    const s = server.starts;
    const failed = server.failures.length === 0 ? '' : `; ${server.failures.length} of ${server.rounds} did not answer`;
    return `| ${name} | ${s.length}${failed} | ${median(s.map((x) => x.ms))} (${s.map((x) => x.ms).join(', ')}) | ${median(s.map((x) => x.cpuMs))} (${s.map((x) => x.cpuMs).join(', ')}) | ${median(s.map((x) => x.rssMb))} | ${[...new Set(s.map((x) => x.status))].join('/')} |`;
  };
  const score = (key: string): string => (lives[key] === undefined ? 'not run' : `${lives[key].outcomes.filter((o) => o.ok).length}/${LIFE.length}`);
  const cost = (key: string): string => (lives[key] === undefined ? '-' : `${lives[key].ms} / ${lives[key].cpuMs} / ${lives[key].rssMb}`);
  const cell = (key: string, at: number): string => {
    const outcome = lives[key]?.outcomes[at];
    return outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${outcome.detail!.replace(/\|/g, '\\|')}`;
  };
  const ours = servers.ours.starts;
  const oursMs = median(ours.map((x) => x.ms));
  const oursCpu = median(ours.map((x) => x.cpuMs));
  const oursMb = median(ours.map((x) => x.rssMb));
  const section = [
    '',
    "## GitHub's description: our mock beside Prism (`npm run bench:github-prism`)",
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, this machine (${cpus().length} cores shared with other engineers' runs, Node ${process.versions.node}), ${minutes} min; load average at the start ${loadStart}, at the end ${loadEnd}.`,
    `Command: \`npm run bench:github-prism\` (\`node dist/bench/github-beside-prism.js --rounds ${ROUNDS} --prism-rounds ${PRISM_ROUNDS}\`). Spec: \`@octokit/openapi\` \`generated/api.github.com.json\` as published, not dereferenced.`,
    `Ours: \`node dist/mock/cli.js --spec <file> --port N --log-level warn\`; Prism 5.14.2: \`prism mock <file> -p N -h 127.0.0.1\` (static, its default logging). Fresh processes, interleaved.`,
    '',
    '### Start-up: spawn to the first answer of `GET /user` (Octokit\'s `Accept`)',
    '',
    'CPU is user + system of the process tree until that answer (`/proc`): what the wall time would be on an idle core. Peak RSS is `VmHWM` summed over the tree right after the answer. Medians, each start in brackets.',
    '',
    '| server | starts | wall (ms) | CPU (ms) | peak RSS (MB) | status |',
    '|---|---|---|---|---|---|',
    startRow('ours', servers.ours),
    startRow('Prism 5.14.2', servers.prism),
    '',
    `- first answer within 4 s: ${oursMs} ms wall, ${oursCpu} ms CPU: **${oursMs <= 4000 ? 'PASS' : oursCpu <= 4000 ? 'PASS by CPU time, FAIL by wall time on this load' : 'FAIL'}**`,
    `- peak RSS at most 250 MB: ${oursMb} MB: **${oursMb <= 250 ? 'PASS' : 'FAIL'}**`,
    '',
    `### The Octokit life: ${LIFE.length} steps that behave as GitHub documents`,
    '',
    'bench/octokit-life.ts, on each server\'s last start: `@octokit/rest` at its defaults, then every request with `Accept: application/json`, each on a fresh repository name. Cost: wall ms / CPU ms of the server\'s tree during the life / its peak RSS in MB after it.',
    '',
    '| server | at Octokit\'s defaults | cost | with `Accept: application/json` | cost |',
    '|---|---|---|---|---|',
    `| ours | ${score('ours')} | ${cost('ours')} | ${score('ours json')} | ${cost('ours json')} |`,
    `| Prism 5.14.2 | ${score('prism')} | ${cost('prism')} | ${score('prism json')} | ${cost('prism json')} |`,
    '',
    '<details><summary>Step by step</summary>',
    '',
    '| step | ours | Prism | ours, JSON | Prism, JSON |',
    '|---|---|---|---|---|',
    ...LIFE.map((step, at) => `| ${step.name} | ${cell('ours', at)} | ${cell('prism', at)} | ${cell('ours json', at)} | ${cell('prism json', at)} |`),
    '',
    '</details>',
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

await main();
