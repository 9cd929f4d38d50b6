import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { failingChecks } from '../corpus/harness.js';
import { alertmanagerInstalled, ALERTMANAGER_SPEC, startAlertmanager, type RunningAlertmanager } from './alertmanager.js';

/**
 * The suite on Alertmanager's own description, against the real server and against our mock of it. The real server
 * fails only its genuine deviations, each listed with its request, answer and line of the description in
 * alertmanager-deviations.md beside this file (the lines marked "run by the test"); our mock fails none of the same
 * checks. The checks whose drawn bodies meet the server's own rules (a start before the end, a label at least) wait
 * for the suite's reading of documented refusals and are listed in the file, not run here.
 */

const DEVIATIONS = join(dirname(fileURLToPath(import.meta.url)), 'alertmanager-deviations.md');
const NO_KEY = 'unused: the description declares no security';

/** The checks run against both servers: the refusals of invalid bodies and the operations no resource holds. */
const REAL_CHECKS = ['postSilences.required-fields', 'postSilences.invalid-body', 'postAlerts.invalid-body', 'getStatus.documented', 'getReceivers.documented', 'getAlertGroups.documented'];

/** The check ids the deviations file marks as run by the test: the failures the real run must show, no more, no fewer. */
function listedDeviations(): string[] {
  const genuine = readFileSync(DEVIATIONS, 'utf8').split('## Suite false alarms')[0]!;
  return [...genuine.matchAll(/^- `([^`]+)` \(run by the test\)/gm)].map((match) => match[1]!).sort();
}

describe.skipIf(!alertmanagerInstalled())('the suite on Alertmanager\'s description (needs prometheus-alertmanager)', () => {
  let real: RunningAlertmanager;
  let mock: StartedMock;
  beforeAll(async () => {
    [real, mock] = await Promise.all([startAlertmanager(), startMock({ spec: ALERTMANAGER_SPEC, port: 0 })]);
  }, 60_000);
  afterAll(async () => {
    await real?.stop();
    await mock?.close();
  });

  test('against our mock the same checks pass', async () => {
    const failures = await failingChecks({ baseUrl: mock.baseUrl, apiKey: NO_KEY, spec: ALERTMANAGER_SPEC, runs: 10 }, REAL_CHECKS);
    expect(failures.map((failure) => failure.report).join('\n\n')).toBe('');
  }, 300_000);

  test('against the real server the checks fail exactly on the deviations listed beside this test', async () => {
    const listed = listedDeviations();
    expect(listed.length).toBeGreaterThan(0);
    expect(REAL_CHECKS).toEqual(expect.arrayContaining(listed));
    const failures = await failingChecks({ baseUrl: real.apiBase, apiKey: NO_KEY, spec: ALERTMANAGER_SPEC, runs: 10 }, REAL_CHECKS);
    expect(failures.map((failure) => failure.id).sort()).toEqual(listed);
  }, 300_000);
});
