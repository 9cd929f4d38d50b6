import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, measure, type Sample } from './startup.js';

/**
 * `npm run bench:github-startup`: time to first answer and peak RSS of our mock started as a user starts it
 * (`node dist/mock/cli.js --spec <file>`, a fresh process each round) on GitHub's own description as published,
 * `@octokit/openapi`'s non-dereferenced `api.github.com.json` (13 MB, some 1,200 operations). The probe is
 * `GET /user` with Octokit's default `Accept: application/vnd.github.v3+json` (D140): the first answer a GitHub
 * client needs. Median of {@link ROUNDS} rounds, appended to bench/RESULTS.md with the targets (first answer within
 * 5 s, peak RSS at most 500 MB). Prism beside ours on the same file, and a life of Octokit calls on each: bench/github-beside-prism.ts.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ROUNDS = 3;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  let spec: string;
  try {
    spec = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  } catch {
    process.stdout.write('skipped: @octokit/openapi is not installed\n');
    return;
  }
  const mockCli = join(ROOT, 'dist', 'mock', 'cli.js');
  const samples: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const port = await freePort();
    samples.push(await measure([mockCli, '--spec', spec, '--port', String(port), '--log-level', 'warn', '--log-format', 'json'], `http://127.0.0.1:${port}/user`, 120_000));
    process.stdout.write(`round ${round + 1}: ${samples.at(-1)!.ms} ms (CPU ${samples.at(-1)!.cpuMs} ms), ${samples.at(-1)!.rssMb} MB, status ${samples.at(-1)!.status}\n`);
  }
  const ms = median(samples.map((s) => s.ms));
  const mb = median(samples.map((s) => s.rssMb));
  const cpu = median(samples.map((s) => s.cpuMs ?? NaN));
  const section = [
    '',
    "## Start-up on GitHub's description (`npm run bench:github-startup`)",
    '',
    `${new Date().toISOString().slice(0, 10)}, this machine (${cpus().length} cores, Node ${process.versions.node}), load average before ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`,
    `@octokit/openapi api.github.com.json, not dereferenced; median of ${ROUNDS} fresh starts of \`node dist/mock/cli.js --spec <file>\`, time from \`spawn\` to the first answer of \`GET /user\`, peak RSS (\`VmHWM\`) after it.`,
    `Rounds: ${samples.map((s) => `${s.ms} ms (CPU ${s.cpuMs} ms) / ${s.rssMb} MB (${s.status})`).join('; ')}. The CPU time the mock spent before its first answer is what the wall time is on an idle machine; on a loaded one the wall time counts the waits for a core.`,
    '',
    `- first answer within 5 s: ${ms} ms wall, ${cpu} ms CPU: **${ms <= 5000 ? 'PASS' : cpu <= 5000 ? 'PASS by CPU time, FAIL by wall time on this load' : 'FAIL'}**`,
    `- peak RSS at most 500 MB: ${mb} MB: **${mb <= 500 ? 'PASS' : 'FAIL'}**`,
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

await main();
