import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `npm run bench:explain`: `openapi-harness explain <file> --json` timed as a user runs it, a whole fresh process
 * each time (`node dist/cli/main.js explain <file> --json`, its output read and dropped), on each description of
 * `../shared/corpus/` and on GitHub's as published (`@octokit/openapi`'s `api.github.com.json`, 13 MB). The target:
 * each ends in under 10 s.
 *
 * Per run: wall time from `spawn` to exit, in ms; CPU time (user + system) the process spent, in ms, read as the
 * growth of this process's reaped-children times (`/proc/self/stat` fields cutime and cstime), which is what the
 * wall time would be on an idle core; peak RSS (`VmHWM` of `/proc/<pid>/status`, polled every 20 ms), in MB.
 * Medians of `--rounds N` runs (3), the descriptions interleaved. Appended to bench/RESULTS.md with the load
 * average before and after. Linux only (`/proc`); a description that is absent is named and left out.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const argv = process.argv.slice(2);
const ROUNDS = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 3;
const CORPUS = process.env['OPENAPI_HARNESS_SHARED_CORPUS'] ?? join(ROOT, '..', 'shared', 'corpus');
/** The root file of each description in the shared corpus (its README names each source). */
const CORPUS_FILES = ['alertmanager/openapi.yaml', 'digitalocean/DigitalOcean-public.v2.yaml', 'museum/openapi.yaml', 'openai/openapi.yaml', 'swagger-petstore/openapi.yaml', 'train-travel/openapi.yaml'];
/** Clock ticks a second of `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on Linux as built). */
const TICKS_MS = 10;
const TARGET_MS = 10_000;

/** CPU time of this process's reaped children, in ms (`/proc/self/stat` cutime + cstime). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ').at(-1)!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICKS_MS;
}

/** One run's figures. */
interface Run {
  ms: number;
  cpuMs: number;
  rssMb: number;
  code: number | null;
}

/** Runs `explain <file> --json` in a fresh process; resolves when it has exited and been reaped. */
async function explainOnce(file: string): Promise<Run> {
  const before = childrenCpuMs();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'explain', file, '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-2_000)));
  let peakKb = 0;
  let exited = false;
  const done = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void done.then(() => (exited = true));
  while (!exited) {
    try {
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // Exited between two polls.
    }
    await Promise.race([done, sleep(20)]);
  }
  const code = await done;
  const ms = Math.round(performance.now() - started);
  if (code !== 0) process.stderr.write(`${file}: exit ${code}: ${stderr}\n`);
  return { ms, cpuMs: childrenCpuMs() - before, rssMb: Math.round(peakKb / 1024), code };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const descriptions: { name: string; file: string }[] = [];
  for (const name of CORPUS_FILES) {
    const file = join(CORPUS, name);
    if (existsSync(file)) descriptions.push({ name: `../shared/corpus/${name}`, file });
    else process.stdout.write(`left out: ${file} is absent\n`);
  }
  try {
    descriptions.push({ name: '@octokit/openapi generated/api.github.com.json', file: createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json') });
  } catch {
    process.stdout.write('left out: @octokit/openapi is not installed\n');
  }
  const loadBefore = loadavg();
  const startedAt = new Date();
  const runs = new Map<string, Run[]>(descriptions.map((description) => [description.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const description of descriptions) {
      const run = await explainOnce(description.file);
      runs.get(description.name)!.push(run);
      process.stdout.write(`round ${round + 1} ${description.name}: ${run.ms} ms wall, ${run.cpuMs} ms CPU, ${run.rssMb} MB, exit ${run.code}\n`);
    }
  }
  const loadAfter = loadavg();
  const rows = descriptions.map((description) => {
    const all = runs.get(description.name)!;
    const ms = median(all.map((run) => run.ms));
    const cpu = median(all.map((run) => run.cpuMs));
    const passed = all.every((run) => run.code === 0) && ms < TARGET_MS;
    return { line: `| ${description.name} | ${ms} (${all.map((run) => run.ms).join(', ')}) | ${cpu} (${all.map((run) => run.cpuMs).join(', ')}) | ${median(all.map((run) => run.rssMb))} | ${all.map((run) => run.code).join(', ')} | **${passed ? 'PASS' : cpu < TARGET_MS ? 'PASS by CPU time, FAIL by wall time on this load' : 'FAIL'}** |`, passed };
  });
  const section = [
    '',
    `## \`openapi-harness explain\` on each public description (\`npm run bench:explain\`)`,
    '',
    `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, this machine (${cpus().length} cores shared with other engineers' runs, Node ${process.versions.node}); load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}.`,
    `Command: \`node dist/cli/main.js explain <file> --json\`, a fresh process per run, its output read and dropped; ${ROUNDS} rounds, the descriptions interleaved. Wall time from spawn to exit; CPU is user + system of the process (what the wall time would be on an idle core); peak RSS is \`VmHWM\`. Medians, each run in brackets. Target: under 10 s each.`,
    '',
    '| description | wall (ms) | CPU (ms) | peak RSS (MB) | exit | under 10 s |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => row.line),
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(`${section}\n(appended to ${relative(process.cwd(), join(ROOT, 'bench', 'RESULTS.md'))})\n`);
  if (rows.some((row) => !row.passed)) process.exitCode = 1;
}

await main();
