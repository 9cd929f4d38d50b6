import { expect, test } from 'vitest';
import { defineIndependentCase, failureText, independentTarget, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { startNurseryServer } from './nursery-server.js';
import { NURSERY_FAULTS } from './faults.js';

defineIndependentCase('nursery-3.0.yaml', (fault) => startNurseryServer({ key: INDEPENDENT_KEY, ...(fault === undefined ? {} : { fault }) }), NURSERY_FAULTS);

// The spec documents both 404 and 400 for a gardener's update and says nothing of their order (D117): the same
// server judging the body before looking the gardener up is as correct, and passes every check too.
test('nursery-3.0.yaml: the server that judges an update\'s body before its gardener passes every check', async () => {
  const server = await startNurseryServer({ key: INDEPENDENT_KEY, bodyFirst: true });
  try {
    expect(failureText(await outcomes(independentTarget('nursery-3.0.yaml', server.baseUrl)))).toBe('');
  } finally {
    await server.close();
  }
});
