import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';

/**
 * Specs written as OpenAPI documents are often written outside this repository's style (test/wild/): no security,
 * `default` error responses with another error shape, a POST that takes no body, string path parameters naming
 * integer ids, array query parameters, operationIds with spaces, a base path on a non-local server. The mock
 * serves each with state and the suite derives its checks from each; every check passes against the mock.
 */
const RUNS = 10;

for (const name of ['classic-style', 'expanded-style', 'x-resource']) {
  describe(name, () => {
    const spec = join(PACKAGE_ROOT, 'test', 'wild', `${name}.yaml`);
    let mock: StartedMock;
    beforeAll(async () => void (mock = await startMock({ spec, port: 0, apiKeys: ['wild-key'], pets: [] })));
    afterAll(() => mock.close());

    test('every check the suite derives passes against the mock', async () => {
      const target = { baseUrl: mock.baseUrl, apiKey: 'wild-key', spec, runs: RUNS };
      const ids = await listCheckIds(target);
      expect(ids.length).toBeGreaterThan(5);
      const failures: string[] = [];
      for (const id of ids) {
        const outcome = await runCheck(id as Parameters<typeof runCheck>[0], target);
        if (!outcome.ok) failures.push(outcome.report);
      }
      expect(failures.join('\n\n')).toBe('');
    }, 120_000);
  });
}

describe('what the mock does with them', () => {
  test('x-resource: the list at /animals/search pages by count and filters kind on species; ids are codes; DELETE is only answered', async () => {
    const mock = await startMock({ spec: join(PACKAGE_ROOT, 'test', 'wild', 'x-resource.yaml'), port: 0, apiKeys: ['shelter'], pets: [] });
    const headers = { 'x-shelter-key': 'shelter', 'content-type': 'application/json' };
    try {
      expect(mock.baseUrl.endsWith('/shelter')).toBe(true);
      const codes: string[] = [];
      for (const [name, species] of [['Tom', 'cat'], ['Rex', 'dog'], ['Kit', 'cat'], ['Bun', 'rabbit']]) {
        const created = await fetch(`${mock.baseUrl}/animals`, { method: 'POST', headers, body: JSON.stringify({ name, species }) });
        expect(created.status).toBe(201);
        codes.push(((await created.json()) as { code: string }).code);
      }
      const cats = (await (await fetch(`${mock.baseUrl}/animals/search?kind=cat`, { headers })).json()) as { name: string }[];
      expect(cats.map((a) => a.name)).toEqual(['Kit', 'Tom']);
      expect(((await (await fetch(`${mock.baseUrl}/animals/search?count=1`, { headers })).json()) as unknown[]).length).toBe(1);
      expect((await fetch(`${mock.baseUrl}/animals/search?count=31`, { headers })).status).toBe(400);
      const one = await fetch(`${mock.baseUrl}/animals/${codes[1]}`, { headers });
      expect(((await one.json()) as { name: string }).name).toBe('Rex');
      expect((await fetch(`${mock.baseUrl}/animals/${codes[1]}`, { method: 'DELETE', headers })).status).toBe(204);
      expect((await fetch(`${mock.baseUrl}/animals/${codes[1]}`, { headers })).status).toBe(200);
      const refused = await fetch(`${mock.baseUrl}/animals/search`);
      expect(refused.status).toBe(401);
      expect(Object.keys((await refused.json()) as object).sort()).toEqual(['error', 'status']);
    } finally {
      await mock.close();
    }
  });

  test('classic: no key asked, a POST without body answers its documented empty 201, errors in the {code, message} shape', async () => {
    const mock = await startMock({ spec: join(PACKAGE_ROOT, 'test', 'wild', 'classic-style.yaml'), port: 0, pets: [] });
    try {
      expect(mock.baseUrl.endsWith('/v1')).toBe(true);
      const list = await fetch(`${mock.baseUrl}/books?limit=5`);
      expect([list.status, await list.json()]).toEqual([200, []]);
      const created = await fetch(`${mock.baseUrl}/books`, { method: 'POST' });
      expect([created.status, await created.text()]).toEqual([201, '']);
      const missing = await fetch(`${mock.baseUrl}/books/7`);
      expect(missing.status).toBe(404);
      const error = (await missing.json()) as Record<string, unknown>;
      expect(Object.keys(error).sort()).toEqual(['code', 'message']);
      expect(error['code']).toBe(404);
    } finally {
      await mock.close();
    }
  });

  test('expanded: created plants persist, are listed, and DELETE answers 204 then the plant is gone', async () => {
    const mock = await startMock({ spec: join(PACKAGE_ROOT, 'test', 'wild', 'expanded-style.yaml'), port: 0, pets: [] });
    try {
      expect(mock.baseUrl.endsWith('/v2')).toBe(true);
      const created = await fetch(`${mock.baseUrl}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Fern","bed":"north"}' });
      expect(created.status).toBe(200);
      const plant = (await created.json()) as { id: number; name: string; bed: string };
      expect(plant).toMatchObject({ name: 'Fern', bed: 'north' });
      expect(((await (await fetch(`${mock.baseUrl}/plants`)).json()) as unknown[]).length).toBe(1);
      // `X-Confirm: yes` is a required header parameter: left out or wrong, the delete is refused and nothing is deleted.
      expect((await fetch(`${mock.baseUrl}/plants/${plant.id}`, { method: 'DELETE' })).status).toBe(400);
      expect((await fetch(`${mock.baseUrl}/plants/${plant.id}`, { method: 'DELETE', headers: { 'x-confirm': 'no' } })).status).toBe(400);
      expect((await fetch(`${mock.baseUrl}/plants/${plant.id}`)).status).toBe(200);
      expect((await fetch(`${mock.baseUrl}/plants/${plant.id}`, { method: 'DELETE', headers: { 'x-confirm': 'yes' } })).status).toBe(204);
      expect((await fetch(`${mock.baseUrl}/plants/${plant.id}`)).status).toBe(404);
      const refused = await fetch(`${mock.baseUrl}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"bed":"north"}' });
      expect(refused.status).toBe(400);
      expect(Object.keys((await refused.json()) as object).sort()).toEqual(['code', 'message']);
    } finally {
      await mock.close();
    }
  });
});
