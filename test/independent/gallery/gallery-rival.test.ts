import { expect, test } from 'vitest';
import { failureText, independentTarget, INDEPENDENT_CLOCK, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { startGalleryRivalServer } from './gallery-rival-server.js';

// A second correct gallery that decided every gap of the spec the other way (uuid v7, list by title, 404 for a
// malformed id, limit of at least 1, a reversed range answered empty, gzip, charset, floats written `25.0`, ...):
// a check that fails it is a false alarm of the suite, whatever the first server chose.
test('gallery-3.1.yaml: a rival server that chose differently passes every check of the suite', async () => {
  const server = await startGalleryRivalServer({ user: INDEPENDENT_KEY, pastLastPage404: true, strictQuery: true, clampLimit: true, now: INDEPENDENT_CLOCK });
  try {
    const target = { ...independentTarget('gallery-3.1.yaml', server.baseUrl), runs: 30 };
    expect(failureText(await outcomes(target))).toBe('');
  } finally {
    await server.close();
  }
}, 90_000);

// A list that shows a new exhibition 20 ms after its create (a read replica): with the consistency window declared,
// the range and page checks re-read until the run's records show, as the read-after-write checks do.
test('gallery-3.1.yaml: a rival whose list lags its creates passes the list checks under a declared consistency window', async () => {
  const server = await startGalleryRivalServer({ user: INDEPENDENT_KEY, listLagMs: 20, now: INDEPENDENT_CLOCK });
  try {
    const target = { ...independentTarget('gallery-3.1.yaml', server.baseUrl), runs: 30, consistencyWindowMs: 500 };
    expect(failureText(await outcomes(target, ['listExhibitions.range', 'listExhibitions.pages', 'updateExhibition.persisted', 'deleteExhibition.gone']))).toBe('');
  } finally {
    await server.close();
  }
}, 60_000);
