import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCKER_BIN } from './docker.js';

/** What one `docker` call gave: its exit code and what it printed. */
export interface DockerRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs Debian's `docker <args>` against `tcp://<host>` at its defaults: no context, no configuration of the user's
 * (`DOCKER_CONFIG` is an empty directory of the life's own), no TLS. `host` is `127.0.0.1:<port>`.
 */
export function docker(host: string, config: string, args: readonly string[]): Promise<DockerRun> {
  const env = { PATH: process.env['PATH'] ?? '', HOME: config, DOCKER_CONFIG: config, DOCKER_HOST: `tcp://${host}` };
  return new Promise((resolve) => {
    execFile(DOCKER_BIN, args, { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** What the life learns as it goes. */
interface LifeState {
  host: string;
  config: string;
  /** The name the daemon gave the volume created without one. */
  anonymous?: string;
  /** The id the daemon gave the network. */
  networkId?: string;
}

/** One step of the life: what must hold, and the check (a text saying what went wrong, or `undefined`). */
export interface DockerStep {
  name: string;
  run(state: LifeState): Promise<string | undefined>;
}

/** One step's outcome. */
export interface DockerOutcome {
  name: string;
  ok: boolean;
  /** Why it did not hold (empty when it held). */
  detail: string;
}

const call = (state: LifeState, ...args: string[]): Promise<DockerRun> => docker(state.host, state.config, args);

const failed = (run: DockerRun): string => `exit ${run.code}: ${(run.stderr || run.stdout).trim().slice(0, 300)}`;

/** The lines a listing printed, trimmed, without empty ones. */
const lines = (run: DockerRun): string[] => run.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/** One JSON object per line, as `--format '{{json .}}'` prints a listing or an inspect. */
function jsonLines(run: DockerRun): Record<string, unknown>[] | string {
  if (run.code !== 0) return failed(run);
  try {
    return lines(run).map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return `not JSON: ${run.stdout.slice(0, 200)}`;
  }
}

/** Whether two JSON values are equal, whatever the order of their objects' members. */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)).map(([key, member]) => [key, sorted(member)])) : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

const need = (value: string | undefined, what: string): string => {
  if (value === undefined) throw new Error(`no ${what} from an earlier step`);
  return value;
};

/** The volume names `docker volume ls -q` prints with the given filters, sorted. */
async function volumeNames(state: LifeState, ...filters: string[]): Promise<string[] | string> {
  const run = await call(state, 'volume', 'ls', '-q', ...filters.flatMap((filter) => ['--filter', filter]));
  return run.code === 0 ? lines(run).sort() : failed(run);
}

/** Checks that a listing gave exactly `want` (sorted). */
function listed(got: string[] | string, want: string[]): string | undefined {
  if (typeof got === 'string') return got;
  return sameJson(got, [...want].sort()) ? undefined : `listed ${JSON.stringify(got)}, wanted ${JSON.stringify([...want].sort())}`;
}

/** An error the CLI prints for a name the daemon does not hold: exit 1, naming the name and saying it is not there. */
function notFound(run: DockerRun, name: string): string | undefined {
  const said = run.stderr.trim();
  return run.code === 1 && said.includes(name) && /no such/i.test(said) ? undefined : `exit ${run.code}, printed ${JSON.stringify(said.slice(0, 300))}`;
}

const LABELS = { app: 'life', tier: 'db' };
const OPTIONS = { type: 'tmpfs', device: 'tmpfs', o: 'size=1m' };

/**
 * The CLI's life on one Engine, in order: each step leans on the ones before. A step holds only when what the CLI
 * shows is what was written or what the daemon's own rules give (a filter applied, a removed volume gone); a server
 * answering fixed samples holds none of the reads. Networks are made `--config-only` (a configuration other networks
 * can use, with no bridge, interface or address on the machine), so the life leaves the host's network as it was.
 */
export const DOCKER_LIFE: DockerStep[] = [
  {
    name: 'version (after GET /_ping names the API version) prints the server\'s Engine and API versions',
    run: async (state) => {
      const run = await call(state, 'version', '--format', '{{.Server.Version}} {{.Server.APIVersion}}');
      return run.code === 0 && /^\d+\.\d+\.\d+\S* 1\.\d+$/.test(run.stdout.trim()) ? undefined : failed(run);
    },
  },
  {
    name: 'volume create with a name, a driver, labels and driver options prints the name',
    run: async (state) => {
      const run = await call(state, 'volume', 'create', '--name', 'life-data', '--driver', 'local', ...Object.entries(LABELS).flatMap(([k, v]) => ['--label', `${k}=${v}`]), ...Object.entries(OPTIONS).flatMap(([k, v]) => ['--opt', `${k}=${v}`]));
      return run.code === 0 && run.stdout.trim() === 'life-data' ? undefined : failed(run);
    },
  },
  {
    name: 'volume create without a name prints the name the daemon made',
    run: async (state) => {
      const run = await call(state, 'volume', 'create', '--label', 'app=life');
      const name = run.stdout.trim();
      if (run.code !== 0 || !/^\S+$/.test(name)) return failed(run);
      state.anonymous = name;
      return name === 'life-data' ? 'the name of the first volume again' : undefined;
    },
  },
  {
    name: 'volume inspect reads back the name, driver and labels written',
    run: async (state) => {
      const got = jsonLines(await call(state, 'volume', 'inspect', '--format', '{{json .}}', 'life-data'));
      if (typeof got === 'string') return got;
      const volume = got[0] ?? {};
      return volume['Name'] === 'life-data' && volume['Driver'] === 'local' && sameJson(volume['Labels'], LABELS) ? undefined : `read ${JSON.stringify(volume)}`;
    },
  },
  {
    // Written as the body's `DriverOpts`, read back as the record's `Options`: two names the description links
    // only in prose ("The driver specific options used when creating the volume").
    name: 'volume inspect reads back the driver options written (sent as DriverOpts, read as Options)',
    run: async (state) => {
      const got = jsonLines(await call(state, 'volume', 'inspect', '--format', '{{json .Options}}', 'life-data'));
      if (typeof got === 'string') return got;
      return sameJson(got[0], OPTIONS) ? undefined : `read ${JSON.stringify(got[0])}`;
    },
  },
  {
    name: 'volume inspect of the unnamed volume reads its made name and its label',
    run: async (state) => {
      const name = need(state.anonymous, 'made name');
      const got = jsonLines(await call(state, 'volume', 'inspect', '--format', '{{json .}}', name));
      if (typeof got === 'string') return got;
      const volume = got[0] ?? {};
      return volume['Name'] === name && sameJson(volume['Labels'], { app: 'life' }) ? undefined : `read ${JSON.stringify(volume)}`;
    },
  },
  {
    name: 'volume ls lists both volumes with their driver',
    run: async (state) => {
      const got = jsonLines(await call(state, 'volume', 'ls', '--format', '{{json .}}'));
      if (typeof got === 'string') return got;
      const rows = got.map((row) => `${String(row['Driver'])} ${String(row['Name'])}`).sort();
      return listed(rows, [`local life-data`, `local ${need(state.anonymous, 'made name')}`]);
    },
  },
  {
    name: 'volume ls -q lists both names',
    run: async (state) => listed(await volumeNames(state), ['life-data', need(state.anonymous, 'made name')]),
  },
  {
    name: 'volume ls --filter label=tier lists the volume with that label only',
    run: async (state) => listed(await volumeNames(state, 'label=tier'), ['life-data']),
  },
  {
    name: 'volume ls --filter label=app=life lists both',
    run: async (state) => listed(await volumeNames(state, 'label=app=life'), ['life-data', need(state.anonymous, 'made name')]),
  },
  {
    name: 'volume ls --filter label=app=other lists none',
    run: async (state) => listed(await volumeNames(state, 'label=app=other'), []),
  },
  {
    name: 'volume ls --filter name=life-d lists the volume whose name holds it',
    run: async (state) => listed(await volumeNames(state, 'name=life-d'), ['life-data']),
  },
  {
    name: 'volume ls --filter dangling=true lists both (no container uses them)',
    run: async (state) => listed(await volumeNames(state, 'dangling=true'), ['life-data', need(state.anonymous, 'made name')]),
  },
  {
    name: 'volume inspect of a name never created fails, saying so',
    run: async (state) => notFound(await call(state, 'volume', 'inspect', 'no-such-volume'), 'no-such-volume'),
  },
  {
    name: 'volume rm prints the name removed',
    run: async (state) => {
      const run = await call(state, 'volume', 'rm', 'life-data');
      return run.code === 0 && run.stdout.trim() === 'life-data' ? undefined : failed(run);
    },
  },
  {
    name: 'the removed volume is no longer read',
    run: async (state) => notFound(await call(state, 'volume', 'inspect', 'life-data'), 'life-data'),
  },
  {
    name: 'the removed volume is no longer listed',
    run: async (state) => listed(await volumeNames(state), [need(state.anonymous, 'made name')]),
  },
  {
    name: 'volume rm of a name never created fails, saying so',
    run: async (state) => notFound(await call(state, 'volume', 'rm', 'no-such-volume'), 'no-such-volume'),
  },
  {
    name: 'volume prune -f removes the unused volume and says which',
    run: async (state) => {
      const run = await call(state, 'volume', 'prune', '-f');
      return run.code === 0 && lines(run).includes(need(state.anonymous, 'made name')) ? undefined : failed(run);
    },
  },
  {
    name: 'after the prune no volume is listed',
    run: async (state) => listed(await volumeNames(state), []),
  },
  {
    name: 'network create --config-only with a subnet and labels prints the new id',
    run: async (state) => {
      const run = await call(state, 'network', 'create', '--config-only', '--subnet', '10.99.0.0/24', '--label', 'app=life', 'life-net');
      const id = run.stdout.trim();
      if (run.code !== 0 || !/^\S+$/.test(id)) return failed(run);
      state.networkId = id;
      return undefined;
    },
  },
  {
    name: 'network inspect by name reads back the id printed, the name, labels and subnet',
    run: async (state) => {
      const got = jsonLines(await call(state, 'network', 'inspect', '--format', '{{json .}}', 'life-net'));
      if (typeof got === 'string') return got;
      const network = got[0] ?? {};
      const config = (network['IPAM'] as { Config?: { Subnet?: unknown }[] } | undefined)?.Config;
      return network['Id'] === need(state.networkId, 'network id') && network['Name'] === 'life-net' && sameJson(network['Labels'], { app: 'life' }) && config?.[0]?.Subnet === '10.99.0.0/24' ? undefined : `read ${JSON.stringify(network)}`;
    },
  },
  {
    // The CLI sends `ConfigOnly`, and the daemon shows it, but the description (API 1.41) names it nowhere.
    name: 'network inspect reads back ConfigOnly (a member the description does not name)',
    run: async (state) => {
      const run = await call(state, 'network', 'inspect', '--format', '{{json .ConfigOnly}}', 'life-net');
      return run.code === 0 && run.stdout.trim() === 'true' ? undefined : failed(run);
    },
  },
  {
    name: 'network ls --filter label=app=life lists the network only',
    run: async (state) => {
      const run = await call(state, 'network', 'ls', '--format', '{{.Name}}', '--filter', 'label=app=life');
      return run.code === 0 ? listed(lines(run), ['life-net']) : failed(run);
    },
  },
  {
    name: 'network rm removes it, and it is read no more',
    run: async (state) => {
      const run = await call(state, 'network', 'rm', 'life-net');
      if (run.code !== 0 || run.stdout.trim() !== 'life-net') return failed(run);
      return notFound(await call(state, 'network', 'inspect', 'life-net'), 'life-net');
    },
  },
];

/**
 * Steps that hold on the real daemon only where it departs from its own description (test/real/docker-deviations.md),
 * each with why: the mock follows the description, so these are kept out of the count of steps the mock must hold.
 */
export const DOCKER_DEVIATIONS: Readonly<Record<string, string>> = {
  'network inspect reads back ConfigOnly (a member the description does not name)':
    'API 1.41\'s description names ConfigOnly in neither the create body nor the network record, and says the server ignores body members it does not name (swagger.yaml line 66); the daemon keeps it (D701)',
};

/**
 * Runs {@link DOCKER_LIFE} against the Engine (or a mock of its description) at `origin` (`http://127.0.0.1:PORT`,
 * without `/v1.41`: the CLI pings `/_ping` and then adds the version the answer's `API-Version` names, `/v1.24` when
 * it names none). A step whose earlier step gave nothing fails and says so; the life never stops early.
 */
export async function runDockerLife(origin: string): Promise<DockerOutcome[]> {
  const config = await mkdtemp(join(tmpdir(), 'docker-cli-'));
  const state: LifeState = { host: new URL(origin).host, config };
  const outcomes: DockerOutcome[] = [];
  try {
    for (const step of DOCKER_LIFE) {
      let detail: string | undefined;
      try {
        detail = await step.run(state);
      } catch (error) {
        detail = error instanceof Error ? error.message : String(error);
      }
      outcomes.push({ name: step.name, ok: detail === undefined, detail: detail ?? '' });
    }
  } finally {
    await rm(config, { recursive: true, force: true });
  }
  return outcomes;
}
