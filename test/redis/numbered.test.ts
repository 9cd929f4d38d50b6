import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { PACKAGE_ROOT } from '../../model/loader.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * Keys counted per parent (spec/DECISIONS.md D240, D244) on the Redis store, as mock/numbered.test.ts shows them in
 * memory: issues numbered from 1 in each repository, pull requests sharing the numbers and served as issues too.
 */
let redis: TestRedis;
let mock: StartedRedisMock;
beforeAll(async () => {
  redis = await startRedis();
  mock = await startMock({ spec: join(PACKAGE_ROOT, 'mock', 'fixtures', 'numbered.openapi.yaml'), port: 0, data: new Map(), store: { url: redis.url, prefix: 'numbered' } });
});
afterAll(async () => {
  await mock?.close();
  await redis?.dispose();
});

const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
  const response = await fetch(`${mock.baseUrl}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};
const numberOf = (answer: { json: unknown }): number => (answer.json as { number: number }).number;

describe('numbers per parent on the Redis store', () => {
  it('each repository numbers from 1, issues and pull requests share the numbers, a pull request is read as an issue', async () => {
    const owner = ((await send('POST', '/user/repos', { name: 'one' })).json as { owner: { login: string } }).owner.login;
    await send('POST', '/user/repos', { name: 'two' });
    expect(numberOf(await send('POST', `/repos/${owner}/one/issues`, { title: 'A' }))).toBe(1);
    expect(numberOf(await send('POST', `/repos/${owner}/one/pulls`, { title: 'Fix A', head: 'fix', base: 'main' }))).toBe(2);
    expect(numberOf(await send('POST', `/repos/${owner}/two/issues`, { title: 'B' }))).toBe(1);
    expect((await send('GET', `/repos/${owner}/two/issues/1`)).json).toMatchObject({ number: 1, title: 'B' });
    expect((await send('GET', `/repos/${owner}/one/issues/2`)).json).toMatchObject({ number: 2, title: 'Fix A', pull_request: {} });
    expect((await send('PATCH', `/repos/${owner}/one/issues/2`, { state: 'closed' })).status).toBe(200);
    expect((await send('GET', `/repos/${owner}/one/pulls/2`)).json).toMatchObject({ state: 'closed' });
    expect(((await send('GET', `/repos/${owner}/one/issues`)).json as { number: number }[]).map((issue) => issue.number)).toEqual([1]);
    expect((await send('GET', `/repos/${owner}/two/issues/2`)).status).toBe(404);
  });
});
