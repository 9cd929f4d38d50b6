import { JUPYTERLAB_LIFE, jupyterLabClients, runJupyterLabLife } from './jupyterlab-life.js';
import { lifeBesidePrism } from './life-beside-prism.js';
import { JUPYTERLAB_SPEC, jupyterlabAbsent, startJupyterLab } from '../test/real/jupyterlab.js';

/**
 * `npm run bench:jupyterlab-life`: the workspaces and settings life of bench/jupyterlab-life.ts, driven by
 * `@jupyterlab/services`' `WorkspaceManager` and `SettingManager` at their defaults, on three servers of JupyterLab
 * Server's description (the file Debian's `python3-jupyterlab-server` installs): the real JupyterLab Server 2.16
 * (Debian's, on a free port, fresh directories), our mock and Prism (bench/life-beside-prism.ts). Each step is
 * scored apart; the counts and the step-by-step table are appended to bench/RESULTS.md.
 */
await lifeBesidePrism({
  heading: '## JupyterLab Server: one client life on the real server, our mock and Prism (`npm run bench:jupyterlab-life`)',
  about: `Description: \`${JUPYTERLAB_SPEC}\` (Debian's \`python3-jupyterlab-server\`, OpenAPI 3.0.3), read where it is installed. Clients: \`@jupyterlab/services\`' \`WorkspaceManager\` and \`SettingManager\` at their defaults (application URL \`/lab\`). The steps are bench/jupyterlab-life.ts; the test/real/jupyterlab-life.test.ts gate holds the mock to every step the real server holds.`,
  spec: JUPYTERLAB_SPEC,
  probePath: '/lab/api/settings/',
  steps: JUPYTERLAB_LIFE,
  absent: jupyterlabAbsent,
  real: { label: 'JupyterLab Server 2.16 (real)', start: (token) => startJupyterLab({ token }) },
  client: jupyterLabClients,
  run: runJupyterLabLife,
});
