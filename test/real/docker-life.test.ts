import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startMock, type StartedMock } from '../../mock/index.js';
import { loadApi } from '../../mock/operations.js';
import { dockerAbsent, DOCKER_SPEC, startDockerd, type RunningDockerd } from './docker.js';
import { DOCKER_DEVIATIONS, DOCKER_LIFE, runDockerLife, type DockerOutcome } from './docker-life.js';

/**
 * The Docker CLI's life (Debian's `/usr/bin/docker` 20.10 at its defaults) on Debian's dockerd 20.10 and on our mock
 * of the Engine API description Debian installs: every step that holds on the real daemon holds on the mock, but
 * the steps listed below, each with why no general reading of a description gives it yet. The mock starts empty
 * (`--empty`), as a fresh daemon holds no volume and no network of the user's. Where dockerd, the CLI or the
 * description is absent (or the tests do not run as root), the tests skip and say which.
 */
const ABSENT = dockerAbsent();

/**
 * Steps that hold on the real daemon and not on the mock, and why. Held to exactly these: a fix shortens the list.
 * Steps where the daemon departs from its description ({@link DOCKER_DEVIATIONS}) are not counted at all.
 */
const NOT_YET: Record<string, string> = {};

/**
 * What a team whose description lags its server does: an OpenAPI Overlay naming the members the daemon keeps
 * (docs/specs.md › Overlays). With it, the mock holds the daemon's deviations too, with no change of code.
 */
const NAMING_OVERLAY = fileURLToPath(new URL('./docker-config-only.overlay.yaml', import.meta.url));

describe.skipIf(ABSENT !== undefined)(`the Docker CLI's life on dockerd and on the mock of its description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let real: RunningDockerd;
  let mock: StartedMock;
  let overlaid: StartedMock;
  let onReal: DockerOutcome[];
  let onMock: DockerOutcome[];
  let onOverlaid: DockerOutcome[];
  beforeAll(async () => {
    const named = await loadApi(DOCKER_SPEC, [NAMING_OVERLAY]);
    [real, mock, overlaid] = await Promise.all([
      startDockerd(),
      startMock({ spec: DOCKER_SPEC, port: 0, data: new Map() }),
      startMock({ model: named, port: 0, data: new Map(), overlays: [NAMING_OVERLAY] }),
    ]);
    [onReal, onMock, onOverlaid] = await Promise.all([runDockerLife(real.origin), runDockerLife(mock.origin), runDockerLife(overlaid.origin)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([real?.stop(), mock?.close(), overlaid?.close()]);
  });

  it('holds every step on the real daemon', () => {
    expect(onReal.filter((outcome) => !outcome.ok)).toEqual([]);
    expect(onReal.length).toBe(DOCKER_LIFE.length);
  });

  it('holds on the mock every step that holds on the real daemon, but those listed as not yet given', () => {
    const heldOnReal = new Set(onReal.filter((outcome) => outcome.ok && !(outcome.name in DOCKER_DEVIATIONS)).map((outcome) => outcome.name));
    const missed = onMock.filter((outcome) => heldOnReal.has(outcome.name) && !outcome.ok);
    expect(missed.filter((outcome) => !(outcome.name in NOT_YET))).toEqual([]);
    expect(missed.map((outcome) => outcome.name).sort()).toEqual(Object.keys(NOT_YET).sort());
  });

  it('lists as the daemon\'s deviations only steps of the life that hold on it', () => {
    const heldOnReal = new Set(onReal.filter((outcome) => outcome.ok).map((outcome) => outcome.name));
    expect(Object.keys(DOCKER_DEVIATIONS).filter((name) => !heldOnReal.has(name))).toEqual([]);
  });

  it('holds every step that holds on the real daemon, its deviations included, once an overlay names what the daemon keeps', () => {
    const heldOnReal = new Set(onReal.filter((outcome) => outcome.ok).map((outcome) => outcome.name));
    expect(onOverlaid.filter((outcome) => heldOnReal.has(outcome.name) && !outcome.ok)).toEqual([]);
    expect(onOverlaid.filter((outcome) => outcome.name in DOCKER_DEVIATIONS).every((outcome) => outcome.ok)).toBe(true);
  });
});
