import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';
import { alertmanagerInstalled, ALERTMANAGER_SPEC, startAlertmanager } from '../test/real/alertmanager.js';
import { runAmtoolLife, type AmtoolOutcome } from '../test/real/amtool-life.js';
import { startRealServer } from '../test/real/server.js';

/**
 * amtool's life (test/real/amtool-life.ts) on three servers, each fresh: the real Alertmanager 0.25, our mock of the
 * description Alertmanager publishes, and Prism 5 (`prism mock`) of the same description. Prints one table of the
 * steps and the three counts (the figures of bench/RESULTS.md). Run: `npm run build && node dist/bench/alertmanager-life.js`.
 */
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

async function onReal(): Promise<AmtoolOutcome[]> {
  const server = await startAlertmanager();
  try {
    return await runAmtoolLife(server.origin);
  } finally {
    await server.stop();
  }
}

async function onMock(): Promise<AmtoolOutcome[]> {
  const mock = await startMock({ spec: ALERTMANAGER_SPEC, port: 0 });
  try {
    return await runAmtoolLife(mock.origin);
  } finally {
    await mock.close();
  }
}

async function onPrism(): Promise<AmtoolOutcome[]> {
  // Prism serves the description's paths without its base path (`/status`, where amtool asks for `/api/v2/status`):
  // amtool is run at its defaults against it all the same, as a user would.
  const server = await startRealServer({
    command: join(ROOT, 'node_modules', '.bin', 'prism'),
    args: (port) => ['mock', ALERTMANAGER_SPEC, '-p', String(port), '-h', '127.0.0.1'],
    readyPath: '/status',
    readyTimeoutMs: 90_000,
  });
  try {
    return await runAmtoolLife(server.origin);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (!alertmanagerInstalled()) {
    console.log('prometheus-alertmanager, amtool or ../shared/corpus/alertmanager/openapi.yaml is absent: nothing to measure');
    process.exitCode = 2;
    return;
  }
  const real = await onReal();
  const mock = await onMock();
  const prism = await onPrism();
  const mark = (outcome: AmtoolOutcome | undefined): string => (outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${outcome.detail.replace(/\s+/g, ' ').slice(0, 90)}`);
  console.log('| step | real Alertmanager 0.25 | our mock | Prism |');
  console.log('|---|---|---|---|');
  real.forEach((outcome, i) => console.log(`| ${outcome.name} | ${mark(outcome)} | ${mark(mock[i])} | ${mark(prism[i])} |`));
  const count = (outcomes: AmtoolOutcome[]): string => `${outcomes.filter((outcome) => outcome.ok).length}/${outcomes.length}`;
  console.log(`\nreal ${count(real)}, mock ${count(mock)}, Prism ${count(prism)}`);
}

await main();
