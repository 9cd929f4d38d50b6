import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import { DEFAULT_API_KEY, startMock, type StartedMock, type StartedRedisMock } from '../../mock/index.js';
import { launchChromium, openConsole } from '../console-browser.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * The console (README › Console) on what is not the seed's memory mock: two replicas sharing one redis-server
 * (a change made through one replica appears in the other's console without a reload), and a corpus spec with
 * a second resource (its records, its form, its operations), in Debian's Chromium through playwright-core.
 */

const TOKEN = 'console-redis-admin';
const KEY = { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json' };

let redis: TestRedis;
let browser: Browser;
const mocks: (StartedMock | StartedRedisMock)[] = [];

beforeAll(async () => {
  [redis, browser] = await Promise.all([startRedis(), launchChromium()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const mock of mocks) await mock.close();
  await redis?.dispose();
});

describe('with the Redis store', () => {
  it('a replica’s console shows what another replica wrote, edits through it, and reports the store', async () => {
    const model = await loadModel();
    const store = { url: redis.url, prefix: 'console', timeoutMs: 1_000 };
    const a = await startMock({ port: 0, model, adminToken: TOKEN, store });
    const b = await startMock({ port: 0, model: await loadModel(), adminToken: TOKEN, store });
    mocks.push(a, b);
    const page = await openConsole(browser, b.origin, TOKEN, DEFAULT_API_KEY);
    await page.getByRole('cell', { name: 'Mittens' }).waitFor();

    const created = await fetch(`${a.baseUrl}/pets`, { method: 'POST', headers: KEY, body: '{"name":"Written on replica A","categoryId":9223372036854775807}' });
    const { id } = (await created.json()) as { id: number };
    const started = Date.now();
    await page.getByRole('cell', { name: 'Written on replica A' }).waitFor({ timeout: 5000 });
    expect(Date.now() - started, 'seen within the 3 s poll').toBeLessThan(4000);

    await page.getByRole('button', { name: `Edit pet ${id}` }).click();
    await page.locator('#record-name').fill('Edited on replica B');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Edited on replica B' }).waitFor();
    expect(await (await fetch(`${a.baseUrl}/pets/${id}`, { headers: KEY })).text()).toBe(`{"id":${id},"name":"Edited on replica B","categoryId":9223372036854775807}`);

    await page.getByRole('tab', { name: 'Health' }).click();
    await page.getByText('redis', { exact: true }).waitFor();
    expect(await page.locator('#health').innerText()).toMatch(/State\s+ready/);
    await page.context().close();
  });
});

describe('on a corpus spec (a second resource)', () => {
  it('lists, creates through the form and reads the second resource; its operations are in the Operations view', async () => {
    const mock = await startMock({ port: 0, spec: join(PACKAGE_ROOT, 'spec', 'corpus', 'second-resource.yaml'), adminToken: TOKEN });
    mocks.push(mock);
    const page = await openConsole(browser, mock.origin, TOKEN, DEFAULT_API_KEY);
    await page.locator('#resource').selectOption('owners');
    await page.getByRole('button', { name: 'New record' }).click();
    await page.locator('#record-name').fill('Ada Owner');
    await page.locator('#record-city').fill('Lyon');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Ada Owner' }).waitFor();
    const owners = (await (await fetch(`${mock.baseUrl}/owners`, { headers: KEY })).json()) as { name: string; city?: string }[];
    expect(owners).toContainEqual(expect.objectContaining({ name: 'Ada Owner', city: 'Lyon' }));

    await page.getByRole('tab', { name: 'Operations' }).click();
    await page.locator('button.operation').filter({ hasText: 'getOwner' }).click();
    const id = (owners.find((o) => o.name === 'Ada Owner') as { id?: number } | undefined)?.id;
    await page.locator('#param-path-ownerId').fill(String(id));
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#answer-status').filter({ hasText: '200' }).waitFor();
    expect(await page.locator('#answer-body').textContent()).toContain('"name": "Ada Owner"');
    await page.context().close();
  });
});
