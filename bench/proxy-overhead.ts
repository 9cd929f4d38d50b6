import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, firstOk, forkTarget, freePort, stopChild, type Target } from './children.js';
import { measure, type Measured } from './autocannon-load.js';

/**
 * `npm run bench:proxy`: the cost of judging traffic (target: at least 0.7 of a bare pass-through proxy). One upstream (the mock with 1,000 pets,
 * in its own process) and, in front of it, each in its own process: a bare pass-through proxy (node:http, an
 * undici pool, one JSON.parse per answer: bench/bare-proxy.ts), the validating proxy (bench/proxy-server.ts) and
 * `prism proxy` (Prism 5.14.2). The same list request (`/pets?limit=20&status=available`, 50 connections) is
 * sent in interleaved rounds (upstream, bare, validating, prism, upstream, ...); each ratio is the median of the
 * ratios of paired rounds, so the drift of a shared machine cancels. Targets: validating ≥ 0.7 of bare, and
 * ahead of Prism. Appends the figures to bench/RESULTS.md. `--quick`: 3 rounds of 2 s.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 7;
const SECONDS = QUICK ? 2 : 3;
const AUTH = { authorization: 'Bearer petstore-dev-key' };
const LIST = '/pets?limit=20&status=available';

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `prism proxy spec/openapi.yaml <upstream>` on a free port, quiet; Prism serves the spec's paths without `/v1`. */
async function startPrismProxy(upstream: string): Promise<Target> {
  const port = await freePort();
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'prism'), ['proxy', join(ROOT, 'spec', 'openapi.yaml'), upstream, '-p', String(port), '-h', '127.0.0.1', '--errors=false', '-v', 'silent'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'silent' } });
  const base = `http://127.0.0.1:${port}`;
  await firstOk(`${base}${LIST}`, AUTH, 60_000);
  return { name: 'prism', base, child, rss: async () => 0, stop: () => stopChild(child) };
}

const middle = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
};
const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;

const upstream = await forkTarget('upstream', 'mock-server', ['1000']);
const targets: Target[] = [upstream];
try {
  targets.push(await forkTarget('bare', 'bare-proxy', [upstream.base]));
  targets.push(await forkTarget('validating', 'proxy-server', [upstream.base]));
  targets.push(await startPrismProxy(upstream.base));
  log(`bench:proxy on ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')} (a shared machine: figures are noisy)`);
  for (const target of targets) await measure({ url: `${target.base}${LIST}`, headers: AUTH, duration: 2 });
  const rounds: Record<string, Measured[]> = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let index = 0; index < ROUNDS; index++) {
    for (const target of targets) {
      const before = cpuSeconds(target.child.pid);
      const measured = await measure({ url: `${target.base}${LIST}`, headers: AUTH, duration: SECONDS });
      measured.cpuMicrosPerRequest = round((1e6 * (cpuSeconds(target.child.pid) - before)) / Math.max(1, measured.total), 1);
      rounds[target.name]!.push(measured);
      log(`  round ${index + 1} ${target.name.padEnd(10)} ${Math.round(measured.requestsPerSecond)} req/s  p99 ${measured.p99Ms} ms  CPU ${measured.cpuMicrosPerRequest} us/req  failures ${measured.failures}`);
    }
  }
  const ratio = (a: string, b: string): { value: number; rounds: number[] } => {
    const ratios = rounds[a]!.map((m, i) => m.requestsPerSecond / rounds[b]![i]!.requestsPerSecond);
    return { value: round(middle(ratios)), rounds: ratios.map((r) => round(r)) };
  };
  const rps = (name: string): number => Math.round(middle(rounds[name]!.map((m) => m.requestsPerSecond)));
  const vsBare = ratio('validating', 'bare');
  const vsPrism = ratio('validating', 'prism');
  const bareVsUpstream = ratio('bare', 'upstream');
  const prismVsBare = ratio('prism', 'bare');
  const failures = Object.values(rounds).flat().reduce((sum, m) => sum + m.failures, 0);
  // Throughput on a shared machine swings with other processes; the CPU a server spends per request does not.
  const cpu = (name: string): number => middle(rounds[name]!.map((m) => m.cpuMicrosPerRequest ?? 0));
  const cpuRatio = round(cpu('bare') / Math.max(0.1, cpu('validating')));
  log(`CPU per request, bare / validating: ${cpuRatio} (the throughput ratio a CPU-bound proxy would reach)`);
  log(`validating / bare: ${vsBare.value} (${vsBare.rounds.join(' ')}), target >= 0.7: ${vsBare.value >= 0.7 ? 'met' : 'NOT met'}`);
  log(`validating / prism: ${vsPrism.value} (${vsPrism.rounds.join(' ')}), target > 1: ${vsPrism.value > 1 ? 'met' : 'NOT met'}`);
  log(`bare / upstream alone: ${bareVsUpstream.value}; prism / bare: ${prismVsBare.value}; failures: ${failures}`);
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  appendFileSync(
    join(ROOT, 'bench', 'RESULTS.md'),
    `\n## Validating proxy (bench:proxy, ${date} UTC${QUICK ? ', --quick' : ''})\n\n` +
      `${ROUNDS} interleaved rounds of ${SECONDS} s, GET ${LIST}, 50 connections, upstream = the mock with 1,000 pets; ` +
      `${cpus().length} cores shared with other work (load average at start ${loadavg()[0]!.toFixed(2)}): the figures are noisy, the paired ratios less so.\n\n` +
      `| server | req/s (median) | CPU us/req (median) |\n|---|---|---|\n` +
      targets.map((t) => `| ${t.name} | ${rps(t.name)} | ${middle(rounds[t.name]!.map((m) => m.cpuMicrosPerRequest ?? 0))} |`).join('\n') +
      `\n\n- validating / bare pass-through: **${vsBare.value}** (rounds ${vsBare.rounds.join(', ')}; target ≥ 0.7: ${vsBare.value >= 0.7 ? 'met' : 'not met'})\n` +
      `- validating / prism proxy: **${vsPrism.value}** (rounds ${vsPrism.rounds.join(', ')}; target > 1: ${vsPrism.value > 1 ? 'met' : 'not met'})\n` +
      `- bare / upstream alone: ${bareVsUpstream.value}; prism / bare: ${prismVsBare.value}; failed requests: ${failures}\n` +
      `- CPU per request, bare / validating: ${cpuRatio} (steadier than throughput here: the ratio a CPU-bound proxy would reach)\n`,
  );
} finally {
  for (const target of targets.reverse()) await target.stop();
}
