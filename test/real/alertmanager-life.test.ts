import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { alertmanagerInstalled, ALERTMANAGER_SPEC, startAlertmanager, type RunningAlertmanager } from './alertmanager.js';
import { runAmtoolLife, type AmtoolOutcome } from './amtool-life.js';

/**
 * amtool's life on the real Alertmanager 0.25 and on our mock of the description Alertmanager publishes: every step
 * that holds on the real server holds on the mock (the real server is the oracle nobody here can tune). Where the
 * server, amtool or the description is absent, the tests skip and say which.
 */
const INSTALLED = alertmanagerInstalled();
const reason = INSTALLED ? '' : ' (skipped: prometheus-alertmanager, amtool or ../shared/corpus/alertmanager/openapi.yaml is absent)';

describe.skipIf(!INSTALLED)(`amtool's life on Alertmanager and on the mock of its description${reason}`, () => {
  let real: RunningAlertmanager;
  let mock: StartedMock;
  let onReal: AmtoolOutcome[];
  beforeAll(async () => {
    [real, mock] = await Promise.all([startAlertmanager(), startMock({ spec: ALERTMANAGER_SPEC, port: 0 })]);
    onReal = await runAmtoolLife(real.origin);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([real?.stop(), mock?.close()]);
  });

  it('holds every step on the real server', () => {
    expect(onReal.filter((outcome) => !outcome.ok)).toEqual([]);
  });

  it('holds on the mock every step that holds on the real server', async () => {
    const onMock = await runAmtoolLife(mock.origin);
    const heldOnReal = new Set(onReal.filter((outcome) => outcome.ok).map((outcome) => outcome.name));
    expect(onMock.filter((outcome) => heldOnReal.has(outcome.name) && !outcome.ok)).toEqual([]);
  }, 120_000);
});
