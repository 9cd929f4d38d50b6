import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { dockerAbsent, DOCKER_SPEC, startDockerd, type RunningDockerd } from './docker.js';
import { DOCKER_LIFE, runDockerLife, type DockerOutcome } from './docker-life.js';

/**
 * The Docker CLI's life (Debian's `/usr/bin/docker` 20.10 at its defaults) on Debian's dockerd 20.10 and on our mock
 * of the Engine API description Debian installs: every step that holds on the real daemon holds on the mock, but
 * the steps listed below, each with why no general reading of a description gives it yet. The mock starts empty
 * (`--empty`), as a fresh daemon holds no volume and no network of the user's. Where dockerd, the CLI or the
 * description is absent (or the tests do not run as root), the tests skip and say which.
 */
const ABSENT = dockerAbsent();

/** Steps that hold on the real daemon and not on the mock, and why. Held to exactly these: a fix shortens the list. */
const NOT_YET: Record<string, string> = {
  'volume inspect reads back the driver options written (sent as DriverOpts, read as Options)':
    'the create body calls them DriverOpts and the record Options; the description links the two in prose only',
  'network inspect reads back ConfigOnly (a member the description does not name)':
    'API 1.41\'s description names ConfigOnly in neither the create body nor the network record, and its text says the server ignores body members it does not name',
  'volume prune -f removes the unused volume and says which':
    '"unused" means no container mounts it: a state of another collection the mock does not hold',
  'after the prune no volume is listed': 'follows from the prune step',
};

describe.skipIf(ABSENT !== undefined)(`the Docker CLI's life on dockerd and on the mock of its description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let real: RunningDockerd;
  let mock: StartedMock;
  let onReal: DockerOutcome[];
  let onMock: DockerOutcome[];
  beforeAll(async () => {
    [real, mock] = await Promise.all([startDockerd(), startMock({ spec: DOCKER_SPEC, port: 0, data: new Map() })]);
    [onReal, onMock] = await Promise.all([runDockerLife(real.origin), runDockerLife(mock.origin)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([real?.stop(), mock?.close()]);
  });

  it('holds every step on the real daemon', () => {
    expect(onReal.filter((outcome) => !outcome.ok)).toEqual([]);
    expect(onReal.length).toBe(DOCKER_LIFE.length);
  });

  it('holds on the mock every step that holds on the real daemon, but those listed as not yet given', () => {
    const heldOnReal = new Set(onReal.filter((outcome) => outcome.ok).map((outcome) => outcome.name));
    const missed = onMock.filter((outcome) => heldOnReal.has(outcome.name) && !outcome.ok);
    expect(missed.filter((outcome) => !(outcome.name in NOT_YET))).toEqual([]);
    expect(missed.map((outcome) => outcome.name).sort()).toEqual(Object.keys(NOT_YET).sort());
  });
});
