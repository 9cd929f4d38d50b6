import { expect, test } from 'vitest';
import { failureText, independentTarget, INDEPENDENT_CLOCK, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { startFerryRivalServer } from './ferry-rival-server.js';

// A second correct ferry backend that decided every gap of the spec the other way, with a timetable of its own
// (none of the spec's example ports or crossings): every check passes it, and none is skipped, because the suite
// finds a crossing by asking /crossings with the ports /ports shows (D124).
test('ferry-travel-3.1.yaml: a rival server with its own timetable passes every check of the suite, none skipped', async () => {
  const server = await startFerryRivalServer({ tokens: [INDEPENDENT_KEY], maskCardNumber: true, capacityConflict: true, strictQuery: true, now: INDEPENDENT_CLOCK });
  try {
    const results = await outcomes({ ...independentTarget('ferry-travel-3.1.yaml', server.baseUrl), runs: 30 });
    expect(failureText(results)).toBe('');
    expect(results.flatMap((result) => (result.ok && result.skipped !== undefined ? [`${result.id}: ${result.skipped}`] : []))).toEqual([]);
  } finally {
    await server.close();
  }
}, 90_000);
