import { afterAll, describe, expect, test } from 'vitest';
import { runCheck, type CheckId } from '../conformance/run-suite.js';
import { startMock } from '../mock/index.js';
import { startPrismProxy } from './prism-proxy.js';

// An independent oracle: the conformance properties run against the mock *through*
// `prism proxy spec/openapi.yaml <mock> --errors`, so every response of the mock is also judged by Prism's own
// validator. A check fails if Prism turns an answer into a violation (a 500 problem+json the check rejects), and
// the test fails if Prism logs any violation at all.
// Only checks that send valid requests go through: Prism answers invalid requests itself (422/401) without
// forwarding them, so the negative and auth checks would test Prism, not the mock. Prism also reads JSON numbers
// as doubles and refuses integers above 2^53 (422), so the properties run with `integers: 'safe'` here; the full
// int64 range is checked against the mock directly (conformance/conformance.test.ts).
const THROUGH_PRISM: CheckId[] = ['listPets.status-filter', 'listPets.default-limit', 'listPets.limit', 'createPet.echo', 'getPet.found', 'stateful.model', 'concurrency.create'];

const mock = await startMock({ port: 0, pets: [], apiKeys: ['oracle-key'] });
const prism = await startPrismProxy(mock.baseUrl);
afterAll(async () => {
  await prism.close();
  await mock.close();
});

describe('conformance properties through prism proxy --errors', () => {
  for (const id of THROUGH_PRISM) {
    test(id, async () => {
      const outcome = await runCheck(id, { baseUrl: prism.baseUrl, apiKey: 'oracle-key', runs: 15, integers: 'safe' });
      expect(outcome.ok ? 'passed' : outcome.report, 'through Prism').toBe('passed');
    });
  }

  test('Prism logged no violation of the mock', () => {
    const violations = prism.output().split('\n').filter((line) => /violation/i.test(line) && !/ 0 violations/i.test(line));
    expect(violations, prism.output().slice(-4000)).toEqual([]);
  });
});
