import { execFile } from 'node:child_process';
import { AMTOOL_BIN } from './alertmanager.js';

/** What one amtool call gave: its exit code and what it printed. */
export interface AmtoolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `amtool --alertmanager.url=<origin> <args>` at its defaults (no config file of the user's is read: `HOME` is empty). */
export function amtool(origin: string, args: readonly string[]): Promise<AmtoolRun> {
  return new Promise((resolve) => {
    execFile(AMTOOL_BIN, [`--alertmanager.url=${origin}/`, '--timeout=10s', ...args], { env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent' }, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** What the life learns as it goes: the ids the server gave the two silences. */
interface LifeState {
  first?: string;
  second?: string;
  /** Every amtool call's stderr, for the version step. */
  stderr: string[];
}

/** One step of the life: a name saying what must hold, and the check (a text saying what went wrong, or `undefined`). */
export interface AmtoolStep {
  name: string;
  run(origin: string, state: LifeState): Promise<string | undefined>;
}

/** One step's outcome. */
export interface AmtoolOutcome {
  name: string;
  ok: boolean;
  /** Why it did not hold (empty when it held). */
  detail: string;
}

/** A silence as amtool prints it with `-o json`, as far as the life reads it. */
interface Silence {
  id?: unknown;
  comment?: unknown;
  createdBy?: unknown;
  matchers?: unknown;
  status?: { state?: unknown };
}

/** An alert as amtool prints it with `-o json`. */
interface Alert {
  labels?: unknown;
  annotations?: unknown;
}

async function call(origin: string, state: LifeState, args: readonly string[]): Promise<AmtoolRun> {
  const run = await amtool(origin, args);
  state.stderr.push(run.stderr);
  return run;
}

function json<T>(run: AmtoolRun): T[] | string {
  if (run.code !== 0) return `amtool exited ${run.code}: ${run.stderr.trim()}`;
  try {
    const value: unknown = JSON.parse(run.stdout);
    return Array.isArray(value) ? (value as T[]) : `not a JSON list: ${run.stdout.slice(0, 200)}`;
  } catch {
    return `not JSON: ${run.stdout.slice(0, 200)}`;
  }
}

function idOf(run: AmtoolRun): string | undefined {
  const id = run.stdout.trim();
  return run.code === 0 && /^\S+$/.test(id) ? id : undefined;
}

const need = (value: string | undefined, what: string): string => {
  if (value === undefined) throw new Error(`no ${what} from an earlier step`);
  return value;
};

/** The silences amtool lists with `-o json` and the given extra arguments, or why it could not. */
async function silences(origin: string, state: LifeState, args: readonly string[] = []): Promise<Silence[] | string> {
  return json<Silence>(await call(origin, state, ['silence', 'query', '-o', 'json', ...args]));
}

/** Whether two JSON values are equal, whatever the order of their objects' members. */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)).map(([key, member]) => [key, sorted(member)])) : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

const FIRST_MATCHERS = [{ name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true }];

/**
 * amtool's life on one Alertmanager, in order: each step leans on the ones before (the ids the adds printed). A step
 * holds only when what amtool shows is what was written or what the server's own rules give (a filter applied, an
 * expired silence shown as expired); a server answering fixed samples holds the first steps only.
 */
export const AMTOOL_LIFE: AmtoolStep[] = [
  {
    name: 'config show prints the configuration from GET /status',
    run: async (origin, state) => {
      const run = await call(origin, state, ['config', 'show']);
      return run.code === 0 && run.stdout.trim() !== '' ? undefined : `exit ${run.code}: ${run.stderr.trim()}`;
    },
  },
  {
    name: 'the version amtool reads from GET /status is a version number',
    run: async (origin, state) => {
      const run = await call(origin, state, ['config', 'routes']);
      const named = /alertmanager version \(([^)]*)\)/.exec(run.stderr)?.[1];
      return named === undefined || /^v?\d+\.\d+(\.\d+)?/.test(named) ? undefined : `amtool read the version ${JSON.stringify(named)}`;
    },
  },
  {
    name: 'silence add prints the new silence id',
    run: async (origin, state) => {
      const run = await call(origin, state, ['silence', 'add', 'alertname=DiskFull', '--comment=disk is full', '--author=alice', '--duration=2h']);
      state.first = idOf(run);
      return state.first === undefined ? `exit ${run.code}: ${run.stdout}${run.stderr}` : undefined;
    },
  },
  {
    name: 'a second silence add prints another id',
    run: async (origin, state) => {
      const run = await call(origin, state, ['silence', 'add', 'alertname=Heartbeat', 'job=web', '--comment=maintenance', '--author=bob', '--duration=1h']);
      state.second = idOf(run);
      if (state.second === undefined) return `exit ${run.code}: ${run.stdout}${run.stderr}`;
      return state.second === state.first ? `the same id twice: ${state.second}` : undefined;
    },
  },
  {
    name: 'silence query lists both silences',
    run: async (origin, state) => {
      const run = await call(origin, state, ['silence', 'query', '--quiet']);
      const ids = run.stdout.split('\n').map((line) => line.trim());
      const missing = [need(state.first, 'first id'), need(state.second, 'second id')].filter((id) => !ids.includes(id));
      return missing.length === 0 ? undefined : `not listed: ${missing.join(', ')} (exit ${run.code}, listed ${JSON.stringify(run.stdout.trim())})`;
    },
  },
  {
    name: 'silence query alertname=DiskFull lists the first silence only',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['alertname=DiskFull']);
      if (typeof listed === 'string') return listed;
      const ids = listed.map((silence) => silence.id);
      return ids.length === 1 && ids[0] === need(state.first, 'first id') ? undefined : `listed ${JSON.stringify(ids)}`;
    },
  },
  {
    name: 'the first silence reads back with the matchers written',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['alertname=DiskFull']);
      if (typeof listed === 'string') return listed;
      const silence = listed.find((one) => one.id === need(state.first, 'first id'));
      return sameJson(silence?.matchers, FIRST_MATCHERS) ? undefined : `matchers ${JSON.stringify(silence?.matchers)}`;
    },
  },
  {
    name: 'the first silence reads back with its comment and author',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['alertname=DiskFull']);
      if (typeof listed === 'string') return listed;
      const silence = listed.find((one) => one.id === need(state.first, 'first id'));
      return silence?.comment === 'disk is full' && silence.createdBy === 'alice' ? undefined : `comment ${JSON.stringify(silence?.comment)}, author ${JSON.stringify(silence?.createdBy)}`;
    },
  },
  {
    name: 'a silence starting now is active',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['alertname=DiskFull']);
      if (typeof listed === 'string') return listed;
      const silence = listed.find((one) => one.id === need(state.first, 'first id'));
      return silence?.status?.state === 'active' ? undefined : `state ${JSON.stringify(silence?.status?.state)}`;
    },
  },
  {
    name: 'silence update (GET /silence/{id}, then POST with the id) keeps the id',
    run: async (origin, state) => {
      const updated = json<Silence>(await call(origin, state, ['silence', 'update', need(state.first, 'first id'), '--comment=disk is still full', '-o', 'json']));
      if (typeof updated === 'string') return updated;
      return updated.length === 1 && updated[0]!.id === state.first ? undefined : `printed ${JSON.stringify(updated.map((one) => one.id))}`;
    },
  },
  {
    name: 'the updated silence lists once, with the new comment',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['alertname=DiskFull']);
      if (typeof listed === 'string') return listed;
      return listed.length === 1 && listed[0]!.id === state.first && listed[0]!.comment === 'disk is still full' ? undefined : `listed ${JSON.stringify(listed.map((one) => [one.id, one.comment]))}`;
    },
  },
  {
    name: 'silence expire ends the second silence',
    run: async (origin, state) => {
      const run = await call(origin, state, ['silence', 'expire', need(state.second, 'second id')]);
      return run.code === 0 ? undefined : `exit ${run.code}: ${run.stderr.trim()}`;
    },
  },
  {
    name: 'the expired silence is no longer among the current ones',
    run: async (origin, state) => {
      const listed = await silences(origin, state);
      if (typeof listed === 'string') return listed;
      const ids = listed.map((one) => one.id);
      return !ids.includes(need(state.second, 'second id')) && ids.includes(state.first) ? undefined : `listed ${JSON.stringify(ids)}`;
    },
  },
  {
    name: 'the expired silence lists under --expired with the state expired',
    run: async (origin, state) => {
      const listed = await silences(origin, state, ['--expired']);
      if (typeof listed === 'string') return listed;
      const silence = listed.find((one) => one.id === need(state.second, 'second id'));
      return silence?.status?.state === 'expired' ? undefined : `listed ${JSON.stringify(listed.map((one) => [one.id, one.status?.state]))}`;
    },
  },
  {
    name: 'alert add posts an alert',
    run: async (origin, state) => {
      const run = await call(origin, state, ['alert', 'add', 'alertname=HighLatency', 'severity=page', '--annotation=summary=latency is high']);
      return run.code === 0 ? undefined : `exit ${run.code}: ${run.stderr.trim()}`;
    },
  },
  {
    name: 'alert query severity=page lists the alert with its labels and annotations as written',
    run: async (origin, state) => {
      const listed = json<Alert>(await call(origin, state, ['alert', 'query', '-o', 'json', 'severity=page']));
      if (typeof listed === 'string') return listed;
      const got = listed.map((alert) => [alert.labels, alert.annotations]);
      return sameJson(got, [[{ alertname: 'HighLatency', severity: 'page' }, { summary: 'latency is high' }]]) ? undefined : `listed ${JSON.stringify(got)}`;
    },
  },
];

/**
 * Runs {@link AMTOOL_LIFE} against the Alertmanager (or a mock of its description) at `origin`
 * (`http://127.0.0.1:PORT`, without `/api/v2`, which amtool adds). A step whose earlier step gave nothing fails and
 * says so; the life never stops early.
 */
export async function runAmtoolLife(origin: string): Promise<AmtoolOutcome[]> {
  const state: LifeState = { stderr: [] };
  const outcomes: AmtoolOutcome[] = [];
  for (const step of AMTOOL_LIFE) {
    let detail: string | undefined;
    try {
      detail = await step.run(origin, state);
    } catch (error) {
      detail = error instanceof Error ? error.message : String(error);
    }
    outcomes.push({ name: step.name, ok: detail === undefined, detail: detail ?? '' });
  }
  return outcomes;
}
