import { expect, test } from 'vitest';
import { MAX_WALK_RECORDS } from '../../../conformance/checks/served-lists.js';
import { INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { MUSEUM_FAULTS } from './faults.js';
import { defineMuseumCase, MUSEUM_ABSENT, MUSEUM_CLOCK, MUSEUM_SPEC, museumTarget } from './museum-case.js';
import { startMuseumServer } from './museum-server.js';

defineMuseumCase((fault) => startMuseumServer({ user: INDEPENDENT_KEY, now: MUSEUM_CLOCK, ...(fault === undefined ? {} : { fault }) }), MUSEUM_FAULTS);

// Hours for every day from `startDate` on never end: the walk stops at its stated bound and says so (D185), asked
// from today rather than from 1970 (D186).
test.skipIf(MUSEUM_SPEC === undefined)(`museum/openapi.yaml: endless opening hours are walked to a stated bound${MUSEUM_SPEC === undefined ? ` (${MUSEUM_ABSENT})` : ''}`, async () => {
  const server = await startMuseumServer({ user: INDEPENDENT_KEY, now: MUSEUM_CLOCK });
  try {
    const [pages] = await outcomes(museumTarget(MUSEUM_SPEC!, server.baseUrl), ['getMuseumHours.pages']);
    expect(pages?.ok).toBe(true);
    const advice = pages?.ok === true ? pages.advice.join('\n') : '';
    expect(advice).toContain(`stopped at its bound of ${MAX_WALK_RECORDS} records`);
    // Today as the run's clock has it.
    expect(advice).toContain(`startDate=${MUSEUM_CLOCK().toISOString().slice(0, 10)}`);
  } finally {
    await server.close();
  }
});
