import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds } from '../../conformance/run-suite.js';
import { startMock, type StartedMock } from '../../mock/index.js';
import { failingChecks } from '../corpus/harness.js';
import { JUPYTERLAB_SPEC, jupyterlabAbsent, startJupyterLab, type RunningJupyterLab } from './jupyterlab.js';

/**
 * The suite on JupyterLab Server's own description, against the real server and against our mock of it. The real
 * server fails only its genuine deviations, each listed with its request, answer and line of the description in
 * jupyterlab-deviations.md beside this file (the lines marked "run by the test"); our mock fails nothing. The real
 * run takes every check: an unknown workspace answered with its documented 200 (no 404 documented) is inside the
 * description (D540).
 */

const ABSENT = jupyterlabAbsent();
const DEVIATIONS = join(dirname(fileURLToPath(import.meta.url)), 'jupyterlab-deviations.md');
const UNUSED_KEY = 'unused: the description declares no security';

/** The check ids the deviations file marks as run by the test: the failures the real run must show, no more, no fewer. */
function listedDeviations(): string[] {
  return [...readFileSync(DEVIATIONS, 'utf8').matchAll(/^- `([^`]+)` \(run by the test\)/gm)].map((match) => match[1]!).sort();
}

describe.skipIf(ABSENT !== undefined)(`the suite on JupyterLab Server's description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let lab: RunningJupyterLab;
  let mock: StartedMock;
  beforeAll(async () => {
    lab = await startJupyterLab({ token: '' });
    mock = await startMock({ spec: JUPYTERLAB_SPEC, port: 0 });
  }, 60_000);
  afterAll(async () => {
    await lab?.close();
    await mock?.close();
  });

  test('against our mock every check passes', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: UNUSED_KEY, spec: JUPYTERLAB_SPEC, runs: 10 };
    expect((await listCheckIds(target)).length).toBeGreaterThan(8);
    expect((await failingChecks(target)).map((failure) => failure.report).join('\n\n')).toBe('');
  }, 120_000);

  test('against the real server the checks fail exactly on the deviations listed beside this test', async () => {
    const target = { baseUrl: lab.baseUrl, apiKey: UNUSED_KEY, spec: JUPYTERLAB_SPEC, runs: 10 };
    const listed = listedDeviations();
    expect(listed.length).toBeGreaterThan(0);
    const run = await listCheckIds(target);
    expect(run).toEqual(expect.arrayContaining(listed));
    const failures = await failingChecks(target, run);
    expect(failures.map((failure) => failure.id).sort()).toEqual(listed);
  }, 120_000);
});
