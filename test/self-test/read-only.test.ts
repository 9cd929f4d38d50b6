import { afterAll, describe, expect, test } from 'vitest';
import { runCheck } from '../../conformance/run-suite.js';
import { createMock } from '../../mock/index.js';
import { editQuery, MUTANT_KEY, operationOf, type Handler } from './mutant-kit.js';
import { serveHandler } from './serve-handler.js';

/**
 * Read-only runs stay sharp: with `--read-only` the suite writes nothing, so it cannot populate the target; list
 * pages are checked against each other instead. A target that quietly caps large limits is caught.
 */

/** A mock holding `count` pets (three statuses in turn), created in-process before the suite sees it. */
async function populatedMock(count: number): Promise<Handler> {
  const { handle } = await createMock({ pets: [], apiKeys: [MUTANT_KEY] });
  const statuses = ['available', 'pending', 'sold'];
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(JSON.stringify({ name: `Resident ${i}`, categoryId: i, status: statuses[i % 3] }));
    const response = handle({ method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${MUTANT_KEY}`, 'content-type': 'application/json' }, body });
    if (response.status !== 201) throw new Error(`could not create resident ${i}: ${response.status} ${response.body}`);
  }
  return handle;
}

/** listPets never answers more than 50 pets: a `limit` above 50 is quietly read as 50. */
function capAt50(inner: Handler): Handler {
  return (request) => inner(operationOf(request) === 'listPets' ? editQuery(request, (query) => Number(query.get('limit')) > 50 && query.set('limit', '50')) : request);
}

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

describe('read-only runs', () => {
  test('a target capping large limits at 50 while holding 150 pets fails listPets.limit without a write', async () => {
    let writes = 0;
    const inner = capAt50(await populatedMock(150));
    const server = await serveHandler((request) => {
      if (request.method !== 'GET') writes += 1;
      return inner(request);
    });
    closers.push(server.close);
    const outcome = await runCheck('listPets.limit', { baseUrl: server.baseUrl, apiKey: MUTANT_KEY, readOnly: true, runs: 25 });
    expect(outcome.ok, outcome.ok ? 'the cap escaped' : outcome.report).toBe(false);
    if (!outcome.ok) expect(outcome.report).toContain('which another page listed');
    expect(writes).toBe(0);
  });

  test('the same target without the cap passes every list check read-only, and no check writes', async () => {
    let writes = 0;
    const inner = await populatedMock(150);
    const server = await serveHandler((request) => {
      if (request.method !== 'GET') writes += 1;
      return inner(request);
    });
    closers.push(server.close);
    const target = { baseUrl: server.baseUrl, apiKey: MUTANT_KEY, readOnly: true, runs: 25 };
    for (const id of ['listPets.limit', 'listPets.status-filter', 'listPets.default-limit', 'getPet.found', 'responses.conformance', 'auth.createPet', 'createPet.echo']) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok, outcome.ok ? id : outcome.report).toBe(true);
    }
    expect(writes).toBe(0);
  });
});
