import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck, startRun } from '../../conformance/run-suite.js';
import type { Target } from '../../conformance/target.js';
import { startMock } from '../../mock/index.js';
import { corpusSpec } from './corpus.js';
import { CORPUS_KEY, probeContext, type Probe } from './probe-client.js';

export { CORPUS_KEY } from './probe-client.js';

/**
 * fast-check runs per property in corpus runs: enough for every rule to be exercised once per spec, few enough
 * that the eighteen specs and the broken servers stay within about three minutes on two cores.
 */
export const CORPUS_RUNS = 10;

/** A check id as the suite names them (`listPets.status-filter`, `deletePet.gone`, …). */
export type CheckId = Parameters<typeof runCheck>[0];

/** A check that failed: its id and the suite's report (rule, problem, request, response, replay). */
export interface CheckFailure {
  id: string;
  report: string;
}

/** The target of a corpus run: the spec the server implements, the corpus key, {@link CORPUS_RUNS}. */
export function corpusTarget(name: string, baseUrl: string, options: Partial<Target> = {}): Target {
  return { baseUrl, apiKey: CORPUS_KEY, spec: corpusSpec(name), runs: CORPUS_RUNS, ...options };
}

/**
 * Runs checks of the suite one after the other against `target`, in one run, (every id of `listCheckIds` when `ids` is not
 * given) and returns those that failed. Rejects when an id is unknown to the suite for this spec: a broken
 * server's expected failure must name a check that exists.
 */
export async function failingChecks(target: Target, ids?: readonly string[]): Promise<CheckFailure[]> {
  const known = await listCheckIds(target);
  const unknown = (ids ?? []).filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new Error(`no such check for ${target.spec ?? 'the default spec'}: ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const failures: CheckFailure[] = [];
  // One run for all of them, as the suite runs them: what the first checks learn of the server, the later ones use.
  const run = await startRun(target);
  try {
    for (const id of ids ?? known) {
      const outcome = await runCheck(id as CheckId, target, run);
      if (!outcome.ok) failures.push({ id, report: outcome.report });
    }
  } finally {
    await run.close();
  }
  return failures;
}

/** A running server for a corpus case: its base URL (origin + the spec's base path) and how to stop it. */
export interface CorpusServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the mock in-process from a corpus spec, empty, accepting {@link CORPUS_KEY}, on a free port. */
export async function startCorpusMock(name: string): Promise<CorpusServer> {
  const mock = await startMock({ spec: corpusSpec(name), port: 0, apiKeys: [CORPUS_KEY], pets: [] });
  return { baseUrl: mock.baseUrl, close: () => mock.close() };
}

/**
 * Registers the tests of one corpus case: a mock started from the spec (by `start`, default in-process), every
 * check of the suite passing against it, and the case's direct probes. Each probe runs on the same server after
 * the suite, so it also sees the records the suite left.
 */
export function defineCorpusCase(name: string, probes: Record<string, Probe>, start: (name: string) => Promise<CorpusServer> = startCorpusMock): void {
  describe(`corpus case ${name}`, () => {
    let server: CorpusServer;
    beforeAll(async () => {
      server = await start(name);
    });
    afterAll(async () => {
      await server?.close();
    });

    test('every check of the suite passes against the mock started from the spec', async () => {
      const target = corpusTarget(name, server.baseUrl);
      const ids = await listCheckIds(target);
      expect(ids.length).toBeGreaterThan(0);
      const failures = await failingChecks(target);
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    });

    for (const [what, probe] of Object.entries(probes)) {
      test(`probe: ${what}`, async () => {
        await probe(probeContext(server.baseUrl));
      });
    }
  });
}
