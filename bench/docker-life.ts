import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../mock/index.js';
import { loadApi } from '../mock/operations.js';
import { dockerAbsent, DOCKER_SPEC, startDockerd } from '../test/real/docker.js';
import { DOCKER_DEVIATIONS, runDockerLife, type DockerOutcome } from '../test/real/docker-life.js';
import { startRealServer } from '../test/real/server.js';

/**
 * The Docker CLI's life (test/real/docker-life.ts) on three servers, each fresh: Debian's dockerd 20.10, our mock of
 * the Engine API description Debian installs, our mock of it with test/real/docker-config-only.overlay.yaml (an OpenAPI
 * Overlay naming the member the daemon keeps and the description does not), and Prism 5 (`prism mock`) of the same
 * description. Prints one table of the steps and the four counts (the figures of bench/RESULTS.md), and the
 * milliseconds each life took.
 * Run: `npm run bench:docker-life` (as root: dockerd needs it).
 */
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

async function timed(run: () => Promise<DockerOutcome[]>): Promise<{ outcomes: DockerOutcome[]; ms: number }> {
  const start = Date.now();
  const outcomes = await run();
  return { outcomes, ms: Date.now() - start };
}

async function onReal(): Promise<DockerOutcome[]> {
  const server = await startDockerd();
  try {
    return await runDockerLife(server.origin);
  } finally {
    await server.stop();
  }
}

const NAMING_OVERLAY = join(ROOT, 'test', 'real', 'docker-config-only.overlay.yaml');

async function onMock(overlays: readonly string[] = []): Promise<DockerOutcome[]> {
  // Empty (`--empty`), as a fresh dockerd holds no volume and no network of the user's.
  const mock = await startMock({ model: await loadApi(DOCKER_SPEC, overlays), port: 0, data: new Map(), overlays });
  try {
    return await runDockerLife(mock.origin);
  } finally {
    await mock.close();
  }
}

async function onPrism(): Promise<DockerOutcome[]> {
  // Prism serves the description's paths without its base path (`/_ping`, `/volumes`): the CLI, pinging `/_ping`
  // and then asking for `/v1.41/...` or `/v1.24/...`, is run at its defaults against it all the same, as a user would.
  const server = await startRealServer({
    command: join(ROOT, 'node_modules', '.bin', 'prism'),
    args: (port) => ['mock', DOCKER_SPEC, '-p', String(port), '-h', '127.0.0.1'],
    readyPath: '/_ping',
    readyTimeoutMs: 90_000,
  });
  try {
    return await runDockerLife(server.origin);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const absent = dockerAbsent();
  if (absent !== undefined) {
    console.log(`${absent}: nothing to measure`);
    process.exitCode = 2;
    return;
  }
  const only = process.argv[2];
  const real = only === undefined || only === 'real' ? await timed(onReal) : undefined;
  const mock = only === undefined || only === 'mock' ? await timed(() => onMock()) : undefined;
  const overlaid = only === undefined || only === 'mock' ? await timed(() => onMock([NAMING_OVERLAY])) : undefined;
  const prism = only === undefined || only === 'prism' ? await timed(onPrism) : undefined;
  const names = (real ?? mock ?? prism)!.outcomes.map((outcome) => outcome.name);
  const mark = (outcome: DockerOutcome | undefined): string => (outcome === undefined ? '-' : outcome.ok ? 'yes' : `no: ${outcome.detail.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 90)}`);
  console.log('| step | real dockerd 20.10 | our mock | our mock + overlay | Prism |');
  console.log('|---|---|---|---|---|');
  names.forEach((name, i) => console.log(`| ${name} | ${mark(real?.outcomes[i])} | ${mark(mock?.outcomes[i])} | ${mark(overlaid?.outcomes[i])} | ${mark(prism?.outcomes[i])} |`));
  const count = (run: { outcomes: DockerOutcome[]; ms: number } | undefined): string => (run === undefined ? 'not run' : `${run.outcomes.filter((outcome) => outcome.ok).length}/${run.outcomes.length} (${run.ms} ms)`);
  console.log(`\nreal ${count(real)}, mock ${count(mock)}, mock with the overlay ${count(overlaid)}, Prism ${count(prism)}`);
  // The steps that hold on the daemon only where it departs from its description are left out of the count the mock is held to.
  const counted = (run: { outcomes: DockerOutcome[] } | undefined): string => {
    if (run === undefined) return 'not run';
    const kept = run.outcomes.filter((outcome) => !(outcome.name in DOCKER_DEVIATIONS));
    return `${kept.filter((outcome) => outcome.ok).length}/${kept.length}`;
  };
  console.log(`without the ${Object.keys(DOCKER_DEVIATIONS).length} step(s) where the daemon departs from its description: real ${counted(real)}, mock ${counted(mock)}, Prism ${counted(prism)}`);
}

await main();
