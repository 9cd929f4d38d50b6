import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

/**
 * `npm run bench:soak`: mixed listPets / createPet / getPet load against the mock CLI in a child
 * process, sampling the child's resident memory every second. Prints requests, socket errors and timeouts,
 * the count per status class, and RSS after warm-up against RSS at the end. Exits 1 when any request failed
 * at the socket, any answer was a 5xx, or the child did not exit 0 on SIGTERM. Loopback only.
 *
 * The store is bounded (`--max-pets`, default 10,000) so that memory can be flat once it is full: after that
 * creates are answered 409 `STORE_FULL`, which the soak counts as 4xx, not as errors. Flags: `--duration`
 * (s, default 60), `--connections` (default 50), `--warmup` (s, default 15), `--max-pets`.
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '15' },
    'max-pets': { type: 'string', default: '10000' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const maxPets = Number(values['max-pets']);

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'dist', 'mock', 'cli.js');
const KEY = 'petstore-dev-key';
const AUTH = { authorization: `Bearer ${KEY}` };

/** Resident set size of a process in MiB, from `/proc/<pid>/status` (Linux). */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

const child = spawn(process.execPath, [CLI, '--port', '0', '--log-level', 'silent', '--max-pets', String(maxPets), '--api-key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
const baseUrl = await new Promise<string>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the mock exited with ${code} before listening`)));
  child.stdout.on('data', (chunk: Buffer) => {
    banner += chunk.toString();
    const match = /serving (http:\/\/\S+)/.exec(banner);
    if (match !== null) resolve(match[1]!);
  });
});
const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
const pid = child.pid!;
const base = new URL(baseUrl);
const prefix = base.pathname.replace(/\/$/, '');

const samples: { second: number; rss: number }[] = [];
const started = Date.now();
const sampler = setInterval(() => samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) }), 1_000);
samples.push({ second: 0, rss: rssMiB(pid) });

let counter = 0;
const statuses = ['available', 'pending', 'sold'];
// One cycle of 10 requests per connection: 5 lists, 3 creates, 2 gets of the demo pets (ids 1 to 8).
const cycle: autocannon.Request[] = [
  ...Array.from({ length: 5 }, (_, i): autocannon.Request => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: `${prefix}/pets?limit=${(counter++ % 100) + 1}${i % 2 === 0 ? `&status=${statuses[counter % 3]}` : ''}` }),
  })),
  ...Array.from({ length: 3 }, (): autocannon.Request => ({
    method: 'POST',
    path: `${prefix}/pets`,
    headers: { ...AUTH, 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...request, body: `{"name":"Soak ${counter++}","categoryId":${counter % 50},"status":"${statuses[counter % 3]}"}` }),
  })),
  ...Array.from({ length: 2 }, (): autocannon.Request => ({ method: 'GET', setupRequest: (request) => ({ ...request, path: `${prefix}/pets/${(counter++ % 8) + 1}` }) })),
];

process.stdout.write(`soak: ${duration} s, ${connections} connections, against ${baseUrl} (pid ${pid}, --max-pets ${maxPets})\n`);
const result = await autocannon({ url: base.origin, connections, duration, headers: AUTH, requests: cycle });
clearInterval(sampler);
samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) });

child.kill('SIGTERM');
const exitCode = await exited;

const afterWarmup = samples.find((sample) => sample.second >= warmup) ?? samples[0]!;
const end = samples.at(-1)!;
const steady = samples.filter((sample) => sample.second >= warmup).map((sample) => sample.rss);
const figures = {
  durationSeconds: duration,
  connections,
  requests: result.requests.total,
  requestsPerSecond: Math.round(result.requests.average),
  latencyP99Ms: result.latency.p99,
  errors: result.errors,
  timeouts: result.timeouts,
  '2xx': result['2xx'],
  '4xx': result['4xx'],
  '5xx': result['5xx'],
  non2xxOr4xx: result.requests.total - result['2xx'] - result['4xx'],
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0])),
  rssMiB: {
    start: round(samples[0]!.rss),
    afterWarmup: round(afterWarmup.rss),
    end: round(end.rss),
    steadyMin: round(Math.min(...steady)),
    steadyMax: round(Math.max(...steady)),
    growthAfterWarmupPercent: round(((end.rss - afterWarmup.rss) / afterWarmup.rss) * 100),
  },
  childExitOnSigterm: exitCode,
};
process.stdout.write(`RSS (MiB) per second: ${samples.map((sample) => round(sample.rss)).join(' ')}\n`);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
const failed = result.errors > 0 || result.timeouts > 0 || result['5xx'] > 0 || figures.non2xxOr4xx > 0 || exitCode !== 0;
process.stdout.write(failed ? 'soak: FAILED\n' : 'soak: ok\n');
process.exit(failed ? 1 : 0);

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
