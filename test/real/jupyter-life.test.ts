import type { ContentsManager } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { runJupyterLife, type JupyterStepOutcome } from '../../bench/jupyter-life.js';
import { installed } from '../shared-corpus.js';
import { JUPYTER_SPEC, jupyterAbsent, startJupyter, type RunningJupyter } from './jupyter.js';

/**
 * One client life, two servers: `@jupyterlab/services`' `ContentsManager` at its defaults drives the same life
 * (bench/jupyter-life.ts) against Debian's Jupyter Server and against our mock of the description that server ships.
 * The real server is the oracle: every step it holds must hold on the mock. Skips, saying why, when Debian's
 * `python3-jupyter-server` or the npm client is absent.
 */

const ABSENT = jupyterAbsent() ?? (installed('@jupyterlab/services') === undefined ? 'skipped: @jupyterlab/services is not installed' : undefined);

/** A contents manager at its defaults for the server at `baseUrl` (its token sent as `Authorization: token …`). */
async function contentsFor(baseUrl: string, token: string): Promise<ContentsManager> {
  const services = await import('@jupyterlab/services');
  return new services.ContentsManager({ serverSettings: services.ServerConnection.makeSettings({ baseUrl, token }) });
}

/** The outcomes as `name: detail` lines for a failure's message. */
const failed = (outcomes: JupyterStepOutcome[]): string[] => outcomes.filter((one) => !one.ok).map((one) => `${one.name}: ${one.detail ?? ''}`);

describe.skipIf(ABSENT !== undefined)(`@jupyterlab/services' contents life on Jupyter Server and on the mock of its description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let jupyter: RunningJupyter;
  let mock: StartedMock;
  let real: JupyterStepOutcome[] = [];

  beforeAll(async () => {
    jupyter = await startJupyter({ token: 'life-token' });
    mock = await startMock({ spec: JUPYTER_SPEC, port: 0 });
  }, 60_000);
  afterAll(async () => {
    await jupyter?.close();
    await mock?.close();
  });

  test('every step holds on the real server', async () => {
    real = await runJupyterLife(await contentsFor(jupyter.baseUrl, jupyter.token));
    expect(failed(real)).toEqual([]);
  });

  test('every step that holds on the real server holds on the mock', async () => {
    const ours = await runJupyterLife(await contentsFor(mock.baseUrl.replace(/\/$/, ''), 'life-token'));
    const heldThere = new Set(real.filter((one) => one.ok).map((one) => one.name));
    expect(heldThere.size).toBeGreaterThan(0);
    expect(failed(ours.filter((one) => heldThere.has(one.name)))).toEqual([]);
  });
});
