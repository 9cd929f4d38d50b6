import { expect, test } from 'vitest';
import { failureText, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { TRAIN_TRAVEL_SPEC, trainTravelSpec, trainTravelTarget } from './train-travel-case.js';
import { startTrainRivalServer } from './train-travel-rival-server.js';
import { absentReason } from '../../shared-corpus.js';

// A second correct Train Travel backend that decided every open point of the text the other way (a dog on a
// trip that takes none is booked, `bicycles=false` lists only trips without bicycles, a local-day trip date, a
// pending payment, ...): a check that fails it is a false alarm of the suite, whatever the first server chose.
const spec = trainTravelSpec;
test.skipIf(spec === undefined)(spec === undefined ? absentReason(TRAIN_TRAVEL_SPEC) : `${TRAIN_TRAVEL_SPEC}: a rival server that chose differently passes every check of the suite`, async () => {
  const server = await startTrainRivalServer({ tokens: [INDEPENDENT_KEY] });
  try {
    const results = await outcomes({ ...trainTravelTarget(spec!, server.baseUrl), runs: 30 });
    expect(failureText(results)).toBe('');
    expect(results.flatMap((result) => (result.ok && result.skipped !== undefined ? [`${result.id}: ${result.skipped}`] : []))).toEqual([]);
  } finally {
    await server.close();
  }
}, 90_000);
