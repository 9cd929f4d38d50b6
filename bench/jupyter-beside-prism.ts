import type { ContentsManager } from '@jupyterlab/services';
import { JUPYTER_LIFE, runJupyterLife } from './jupyter-life.js';
import { lifeBesidePrism } from './life-beside-prism.js';
import { JUPYTER_SPEC, jupyterAbsent, startJupyter } from '../test/real/jupyter.js';

/**
 * `npm run bench:jupyter-life`: the contents life of bench/jupyter-life.ts, driven by `@jupyterlab/services`'
 * `ContentsManager` at its defaults, on three servers of Jupyter Server's description (the file Debian's
 * `python3-jupyter-server` installs): the real Jupyter Server 1.23 (Debian's, on a free port, fresh root), our mock
 * and Prism (bench/life-beside-prism.ts). Each step is scored apart; the counts and the step-by-step table are
 * appended to bench/RESULTS.md.
 */

/** A contents manager at its defaults for the server at `baseUrl`, with `token` sent as `Authorization: token …`. */
async function contentsFor(baseUrl: string, token: string): Promise<ContentsManager> {
  const services = await import('@jupyterlab/services');
  return new services.ContentsManager({ serverSettings: services.ServerConnection.makeSettings({ baseUrl, token }) });
}

await lifeBesidePrism({
  heading: '## Jupyter Server: one client life on the real server, our mock and Prism (`npm run bench:jupyter-life`)',
  about: `Description: \`${JUPYTER_SPEC}\` (Debian's \`python3-jupyter-server\`, Swagger 2.0), read where it is installed. Client: \`@jupyterlab/services\`' \`ContentsManager\` at its defaults. The steps are bench/jupyter-life.ts; the test/real/jupyter-life.test.ts gate holds the mock to every step the real server holds.`,
  spec: JUPYTER_SPEC,
  probePath: '/api/status',
  steps: JUPYTER_LIFE,
  absent: jupyterAbsent,
  real: { label: 'Jupyter Server 1.23 (real)', start: (token) => startJupyter({ token }) },
  client: contentsFor,
  run: runJupyterLife,
});
