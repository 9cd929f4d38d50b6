import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeLargeSpec } from './large-spec.js';

/**
 * `npm run bench:startup`: time to first answer and peak RSS of our mock and of Prism 5.14.2 (`prism mock`),
 * started as a user starts them (a fresh process each round), on the generated large multi-file spec
 * (bench/large-spec.ts: 650 operations, about 2,900 files) and on the shipped seed spec. Figures are appended to
 * bench/RESULTS.md. Extra specs: `-- --spec FILE --probe /PATH [--prism-probe /PATH]` (measured, never copied).
 *
 * Time to first answer: from `spawn` to the first HTTP answer (any status) of a GET on the probe path, polled
 * every 25 ms. Peak RSS: the child's `VmHWM` (Linux) right after that answer. Median of 3 interleaved rounds.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ROUNDS = 3;
const KEY = 'petstore-dev-key';

interface SpecCase {
  name: string;
  spec: string;
  /** Path our mock answers (its base path included). */
  probe: string;
  /** Path Prism answers (Prism serves the spec's paths without the server's base path). */
  prismProbe: string;
}

export interface Sample {
  ms: number;
  rssMb: number;
  status: number;
  /** CPU time (user + system) the child spent up to the answer, in ms: what the wall time is on an idle machine. */
  cpuMs?: number;
}

/** The child's CPU time (user + system, `/proc/<pid>/stat`, Linux) in ms, at 100 clock ticks a second; `NaN` once it is gone. */
export function cpuMs(child: ChildProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** The child's peak resident set (`VmHWM`, Linux) in MB; `NaN` once it is gone. */
export function peakRssMb(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

/** Starts `args` (a node script), polls `url` until it answers, reads the peak RSS, stops the child; `timeoutMs` bounds the wait. */
export async function measure(args: string[], url: string, timeoutMs = 60_000): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  // Prism writes its fatal errors to stdout, its usage to stderr: both are kept for the message of a refusal.
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = `${output}${chunk.toString('utf8')}`.slice(-20_000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = `${output}${chunk.toString('utf8')}`.slice(-20_000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    while (performance.now() - started < timeoutMs) {
      if (exited) throw new Error(`${args.join(' ')} exited before answering: ${output}`);
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        return { ms: Math.round(performance.now() - started), rssMb: peakRssMb(child), status: response.status, cpuMs: cpuMs(child) };
      } catch (error) {
        if (exited) continue;
        if ((error as { name?: string }).name === 'TimeoutError') continue;
        await sleep(25);
      }
    }
    throw new Error(`${args.join(' ')}: no answer within ${timeoutMs} ms`);
  } finally {
    child.kill('SIGKILL');
    if (!exited) await new Promise((resolve) => child.once('exit', resolve));
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  // Prism refuses the spec while a page an `x-` extension refers to is missing: the comparison uses the complete
  // variant; the default one (pages missing) is started by ours alone and its refusal by Prism is recorded.
  const partial = writeLargeSpec({ dir: join(tmpdir(), 'petstore-bench-large-spec-partial') });
  const large = writeLargeSpec({ dir: join(tmpdir(), 'petstore-bench-large-spec'), docPages: true });
  const cases: SpecCase[] = [
    { name: `generated large spec (${large.operations} operations, ${large.files} files)`, spec: large.root, probe: large.probePath, prismProbe: large.probePath },
    { name: 'seed spec (spec/openapi.yaml)', spec: join(ROOT, 'spec', 'openapi.yaml'), probe: '/v1/pets', prismProbe: '/pets' },
  ];
  const argv = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
  const extra = flag('--spec');
  if (extra !== undefined) cases.push({ name: `${extra} (not in the repository)`, spec: extra, probe: flag('--probe') ?? '/', prismProbe: flag('--prism-probe') ?? flag('--probe') ?? '/' });

  const mockCli = join(ROOT, 'dist', 'mock', 'cli.js');
  const prismCli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const rows: string[] = [];
  const verdicts: string[] = [];
  for (const specCase of cases) {
    const ours: Sample[] = [];
    const prism: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let port = await freePort();
      ours.push(await measure([mockCli, '--spec', specCase.spec, '--port', String(port), '--api-key', KEY, '--log-level', 'warn', '--log-format', 'json'], `http://127.0.0.1:${port}${specCase.probe}`));
      port = await freePort();
      prism.push(await measure([prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), specCase.spec], `http://127.0.0.1:${port}${specCase.prismProbe}`));
      process.stdout.write(`${specCase.name}, round ${round + 1}: ours ${ours.at(-1)!.ms} ms ${ours.at(-1)!.rssMb} MB (${ours.at(-1)!.status}); prism ${prism.at(-1)!.ms} ms ${prism.at(-1)!.rssMb} MB (${prism.at(-1)!.status})\n`);
    }
    const oursMs = median(ours.map((s) => s.ms));
    const prismMs = median(prism.map((s) => s.ms));
    const oursMb = median(ours.map((s) => s.rssMb));
    rows.push(`| ${specCase.name} | ${oursMs} | ${oursMb} | ${prismMs} | ${median(prism.map((s) => s.rssMb))} | ${(oursMs / prismMs).toFixed(2)} |`);
    if (specCase.spec === large.root) {
      verdicts.push(`- large spec, first answer within 5 s: ${oursMs} ms: **${oursMs <= 5000 ? 'PASS' : 'FAIL'}**`);
      verdicts.push(`- large spec, peak RSS under 500 MB: ${oursMb} MB: **${oursMb < 500 ? 'PASS' : 'FAIL'}**`);
      verdicts.push(`- large spec, no later than Prism: ${oursMs} ms vs ${prismMs} ms: **${oursMs <= prismMs ? 'PASS' : 'FAIL'}**`);
    } else if (specCase.spec.endsWith(join('spec', 'openapi.yaml'))) {
      verdicts.push(`- seed spec, first answer within 1 s: ${oursMs} ms: **${oursMs < 1000 ? 'PASS' : 'FAIL'}**`);
    }
  }
  const oursPort = await freePort();
  const partialOurs = await measure([mockCli, '--spec', partial.root, '--port', String(oursPort), '--api-key', KEY, '--log-level', 'warn', '--log-format', 'json'], `http://127.0.0.1:${oursPort}${partial.probePath}`).catch(() => undefined);
  const prismPort = await freePort();
  const partialPrism = await measure([prismCli, 'mock', '-h', '127.0.0.1', '-p', String(prismPort), partial.root], `http://127.0.0.1:${prismPort}${partial.probePath}`).then(
    () => 'starts',
    (error: unknown) => `refuses to start (${/Error opening file[^\n]*/.exec((error as Error).message)?.[0]?.replace(/\s+$/, '').replace(/"[^"]*\/(resources\/)/, '"…/$1') ?? 'see its output'})`,
  );
  verdicts.push(`- large spec with ${partial.files} files, some \`x-codeSamples\` pages missing: ours ${partialOurs === undefined ? 'did not answer' : `answers in ${partialOurs.ms} ms`}; Prism ${partialPrism}`);
  const section = [
    '',
    '## Start-up: time to first answer and peak RSS, our mock vs Prism (`npm run bench:startup`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, this machine (${cpus().length} cores, Node ${process.versions.node}), load average before ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`,
    `Each figure is the median of ${ROUNDS} fresh starts, ours and Prism 5.14.2 interleaved; time from \`spawn\` to the first HTTP answer of a GET, peak RSS is \`VmHWM\` after it.`,
    '',
    '| spec | ours (ms) | ours peak RSS (MB) | Prism (ms) | Prism peak RSS (MB) | ours / Prism |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    ...verdicts,
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

// Run only as `node dist/bench/startup.js`: bench/ai-startup.ts imports its helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
