import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeAiSpec } from './ai-spec.js';
import { freePort, peakRssMb } from './startup.js';

/**
 * `npm run bench:ai-startup`: our mock and Prism 5.14.2 (`prism mock`) on the generated single-file spec in the
 * shape of a large AI service (bench/ai-spec.ts: 278 operations, about 80,000 lines, a forty-kind `Item` union
 * recursing through `oneOf`, seven `text/event-stream` answers), each started as a user starts it.
 *
 * Per round and server: time from `spawn` to the first HTTP answer of `GET /models` (polled every 25 ms), the
 * first answer of `POST /chat/completions`, then whether it still answers `GET /models` every second for
 * {@link STAY_MS} (our background check of the answers runs then), and the peak RSS (`VmHWM`) at the end.
 * Medians of {@link ROUNDS} rounds of ours and {@link PRISM_ROUNDS} of Prism, appended to bench/RESULTS.md;
 * a server that does not answer within {@link START_LIMIT_MS} is recorded so.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
/** Fresh starts of ours (`--rounds`) and of Prism (`--prism-rounds`: Prism takes minutes on a loaded machine). */
const ROUNDS = option('--rounds', 5);
const PRISM_ROUNDS = option('--prism-rounds', 1);
const STAY_MS = 20_000;
/** The longest wait for a first answer; beyond it the round counts as no answer. */
const START_LIMIT_MS = option('--limit', 300_000);
const KEY = 'petstore-dev-key';

interface Round {
  /** `NaN` when no answer came within the limit. */
  firstMs: number;
  chatMs: number;
  chatStatus: number;
  up: boolean;
  rssMb: number;
}

async function round(args: string[], base: string): Promise<Round> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4_000)));
  child.once('exit', () => (exited = true));
  const get = async (path: string, init: RequestInit = {}): Promise<number> => {
    const response = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    return response.status;
  };
  try {
    let firstMs: number | undefined;
    while (firstMs === undefined && performance.now() - started < START_LIMIT_MS && !exited) {
      try {
        await get('/models');
        firstMs = Math.round(performance.now() - started);
      } catch {
        await sleep(25);
      }
    }
    if (firstMs === undefined) {
      process.stderr.write(`${args.join(' ')}: no answer within ${START_LIMIT_MS} ms${exited ? ` (exited: ${stderr})` : ''}\n`);
      return { firstMs: NaN, chatMs: NaN, chatStatus: 0, up: false, rssMb: peakRssMb(child) };
    }
    const chatAt = performance.now();
    const chatStatus = await get('/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'model-large-1', messages: [{ role: 'user', content: 'hello' }] }) });
    const chatMs = Math.round(performance.now() - chatAt);
    let up = true;
    for (const until = performance.now() + STAY_MS; performance.now() < until && up; ) {
      await sleep(1_000);
      up = !exited && (await get('/models').catch(() => 0)) !== 0;
    }
    return { firstMs, chatMs, chatStatus, up, rssMb: peakRssMb(child) };
  } finally {
    child.kill('SIGKILL');
    if (!exited) await new Promise((resolve) => child.once('exit', resolve));
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const spec = writeAiSpec(join(tmpdir(), 'petstore-bench-ai-spec.yaml'));
  const mockCli = join(ROOT, 'dist', 'mock', 'cli.js');
  const prismCli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const ours: Round[] = [];
  const prism: Round[] = [];
  for (let r = 0; r < Math.max(ROUNDS, PRISM_ROUNDS); r++) {
    if (r < ROUNDS) {
      const port = await freePort();
      ours.push(await round([mockCli, '--spec', spec.file, '--port', String(port), '--api-key', KEY, '--log-level', 'warn', '--log-format', 'json'], `http://127.0.0.1:${port}/v1`));
      process.stdout.write(`round ${r + 1}: ours ${JSON.stringify(ours.at(-1))}\n`);
    }
    if (r < PRISM_ROUNDS) {
      const port = await freePort();
      // Prism serves the spec's paths without the server's base path.
      prism.push(await round([prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), spec.file], `http://127.0.0.1:${port}`));
      process.stdout.write(`round ${r + 1}: prism ${JSON.stringify(prism.at(-1))}\n`);
    }
  }
  const answered = (rounds: Round[]): Round[] => rounds.filter((x) => !Number.isNaN(x.firstMs));
  const figure = (rounds: Round[], value: (x: Round) => number): string => {
    const got = answered(rounds);
    const silent = rounds.length - got.length;
    const shown = got.length === 0 ? '' : String(median(got.map(value)));
    return silent === 0 ? shown : `${shown}${shown === '' ? '' : '; '}no answer within ${START_LIMIT_MS / 1000} s in ${silent} of ${rounds.length}`;
  };
  const row = (name: string, rounds: Round[]): string =>
    `| ${name} (${rounds.length} start${rounds.length === 1 ? '' : 's'}) | ${figure(rounds, (x) => x.firstMs)} | ${figure(rounds, (x) => x.chatMs)} (${[...new Set(answered(rounds).map((x) => x.chatStatus))].join('/') || '-'}) | ${rounds.filter((x) => x.up).length}/${rounds.length} | ${median(rounds.map((x) => x.rssMb))} |`;
  const first = median(ours.map((x) => x.firstMs));
  const rss = median(ours.map((x) => x.rssMb));
  const section = [
    '',
    '## Start-up on a large AI-shaped spec, our mock vs Prism (`npm run bench:ai-startup`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, this machine (${cpus().length} cores shared, Node ${process.versions.node}), load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`,
    `Spec: bench/ai-spec.ts, one YAML file of ${spec.lines} lines, ${spec.operations} operations, ${spec.streams} documenting \`text/event-stream\`. Medians of fresh starts, interleaved;`,
    `"stays up": still answering every second for ${STAY_MS / 1000} s after the first answer; peak RSS is \`VmHWM\` at the end of that window.`,
    '',
    '| server | first answer (ms) | first POST /chat/completions (ms, status) | stays up | peak RSS (MB) |',
    '|---|---|---|---|---|',
    row('ours', ours),
    row('Prism 5.14.2', prism),
    '',
    `- first answer within 5 s: ${first} ms: **${first <= 5000 ? 'PASS' : 'FAIL'}**`,
    `- peak RSS at most 500 MB: ${rss} MB: **${rss <= 500 ? 'PASS' : 'FAIL'}**`,
    `- stays up through its background pass: ${ours.filter((x) => x.up).length}/${ours.length}: **${ours.every((x) => x.up) ? 'PASS' : 'FAIL'}**`,
    '',
  ].join('\n');
  appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  process.stdout.write(section);
}

await main();
