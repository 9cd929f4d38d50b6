import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { jupyterLabClients, runJupyterLabLife, type JupyterLabStepOutcome } from '../../bench/jupyterlab-life.js';
import { installed } from '../shared-corpus.js';
import { JUPYTERLAB_SPEC, jupyterlabAbsent, startJupyterLab, type RunningJupyterLab } from './jupyterlab.js';

/**
 * One client life, two servers: `@jupyterlab/services`' `WorkspaceManager` and `SettingManager` at their defaults
 * drive the same life (bench/jupyterlab-life.ts) against Debian's JupyterLab Server and against our mock of the
 * description that server ships. The real server is the oracle: every step it holds must hold on the mock. Skips,
 * saying why, when Debian's `python3-jupyterlab-server` or the npm client is absent.
 */

const ABSENT = jupyterlabAbsent() ?? (installed('@jupyterlab/services') === undefined ? 'skipped: @jupyterlab/services is not installed' : undefined);

/** The outcomes as `name: detail` lines for a failure's message. */
const failed = (outcomes: JupyterLabStepOutcome[]): string[] => outcomes.filter((one) => !one.ok).map((one) => `${one.name}: ${one.detail ?? ''}`);

describe.skipIf(ABSENT !== undefined)(`@jupyterlab/services' workspaces and settings life on JupyterLab Server and on the mock of its description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let lab: RunningJupyterLab;
  let mock: StartedMock;
  let real: JupyterLabStepOutcome[] = [];

  beforeAll(async () => {
    lab = await startJupyterLab({ token: 'life-token' });
    mock = await startMock({ spec: JUPYTERLAB_SPEC, port: 0 });
  }, 60_000);
  afterAll(async () => {
    await lab?.close();
    await mock?.close();
  });

  test('every step holds on the real server', async () => {
    real = await runJupyterLabLife(await jupyterLabClients(lab.baseUrl, lab.token));
    expect(failed(real)).toEqual([]);
  });

  test('every step that holds on the real server holds on the mock', async () => {
    const ours = await runJupyterLabLife(await jupyterLabClients(mock.baseUrl.replace(/\/$/, ''), 'life-token'));
    const heldThere = new Set(real.filter((one) => one.ok).map((one) => one.name));
    expect(heldThere.size).toBeGreaterThan(0);
    expect(failed(ours.filter((one) => heldThere.has(one.name)))).toEqual([]);
  });
});
