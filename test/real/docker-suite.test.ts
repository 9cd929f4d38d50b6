import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { failingChecks } from '../corpus/harness.js';
import { dockerAbsent, DOCKER_SPEC, startDockerd, type RunningDockerd } from './docker.js';

/**
 * The suite on the Engine API description Debian installs (API 1.41), against Debian's dockerd 20.10 and against our
 * mock of the same description. The real daemon fails only its genuine deviations, each listed with its request,
 * answer and line of the description in docker-deviations.md beside this file (the lines marked "run by the test");
 * our mock fails none of the same checks, nor the checks of the records the real run leaves out.
 *
 * The real run is bounded to checks that touch nothing outside the daemon's temporary root and take well under a
 * second each (the file says why each other check is left out): no container or image (they need runc or a
 * registry), no network written (a drawn network is a bridge with routes on the host), no volume of a drawn
 * driver (the daemon looks for the plugin for 15 s before its undocumented 404).
 */

const ABSENT = dockerAbsent();
const DEVIATIONS = join(dirname(fileURLToPath(import.meta.url)), 'docker-deviations.md');
const NO_KEY = 'unused: the description declares no security';

/** The checks run against both servers. */
const REAL_CHECKS = [
  'SystemPing.documented', 'SystemPingHead.documented', 'SystemVersion.documented', 'SystemInfo.documented',
  'VolumeCreate.invalid-body', 'VolumePrune.documented',
  'NetworkPrune.documented', 'NetworkConnect.documented', 'NetworkDisconnect.documented',
];

/** The checks of the records run against the mock alone (see above and the deviations file for why not the real daemon). */
const MOCK_ONLY = [
  'VolumeCreate.echo', 'VolumeCreate.client-id', 'VolumeInspect.found', 'VolumeInspect.not-found', 'VolumeDelete.gone',
  'NetworkCreate.required-fields', 'NetworkCreate.invalid-body', 'NetworkCreate.echo', 'NetworkInspect.found', 'NetworkInspect.not-found', 'NetworkDelete.gone',
];

/** The check ids the deviations file marks as run by the test: the failures the real run must show, no more, no fewer. */
function listedDeviations(): string[] {
  return [...readFileSync(DEVIATIONS, 'utf8').matchAll(/^- `([^`]+)` \(run by the test\)/gm)].map((match) => match[1]!).sort();
}

describe.skipIf(ABSENT !== undefined)(`the suite on the Engine API description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let real: RunningDockerd;
  let mock: StartedMock;
  beforeAll(async () => {
    [real, mock] = await Promise.all([startDockerd(), startMock({ spec: DOCKER_SPEC, port: 0, data: new Map() })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([real?.stop(), mock?.close()]);
  });

  test('against our mock the same checks, and those of the records, pass', async () => {
    const failures = await failingChecks({ baseUrl: mock.baseUrl, apiKey: NO_KEY, spec: DOCKER_SPEC, runs: 10, seed: 1 }, [...REAL_CHECKS, ...MOCK_ONLY]);
    expect(failures.map((failure) => failure.report).join('\n\n')).toBe('');
  }, 120_000);

  test('against the real daemon the checks fail exactly on the deviations listed beside this test', async () => {
    const listed = listedDeviations();
    expect(listed.length).toBeGreaterThan(0);
    expect(REAL_CHECKS).toEqual(expect.arrayContaining(listed));
    const failures = await failingChecks({ baseUrl: real.apiBase, apiKey: NO_KEY, spec: DOCKER_SPEC, runs: 10, seed: 1 }, REAL_CHECKS);
    expect(failures.map((failure) => failure.id).sort()).toEqual(listed);
  }, 120_000);
});
