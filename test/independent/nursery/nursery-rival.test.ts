import { expect, test } from 'vitest';
import { failureText, independentTarget, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { startNurseryRivalServer } from './nursery-rival-server.js';

// A second correct nursery that decided every gap of the spec the other way (422 where documented, 403 for a wrong
// key, passwords never echoed, ids beyond 2^53, newest first, order defaults filled, ...): a check that fails it is
// a false alarm of the suite, whatever the first server chose.
test('nursery-3.0.yaml: a rival server that chose differently passes every check of the suite', async () => {
  const server = await startNurseryRivalServer({ key: INDEPENDENT_KEY, idempotentDelete: true, defaultStatus: true });
  try {
    const target = { ...independentTarget('nursery-3.0.yaml', server.baseUrl), runs: 30 };
    expect(failureText(await outcomes(target))).toBe('');
  } finally {
    await server.close();
  }
}, 90_000);
