import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { startProxy, type StartedProxy } from '../proxy/proxy.js';
import { launchChromium, openConsole } from './console-browser.js';

/**
 * The console of `proxy --shadow` (DECISIONS D473) in a real browser: each forwarded exchange in the Requests view
 * says whether the mock answered as the backend did, and opens to each difference with the request and both
 * answers. The backend is written here from the shipped description with one difference of its own: its animals
 * carry a `createdAt` the description does not document, which the mock never answers.
 */

const TOKEN = 'shadow-console-admin';
const KEY = 'petstore-dev-key';

let upstream: Server;
let proxy: StartedProxy;
let browser: Browser;
let page: Page;

/** The backend: creates animals from id 500 (each with an undocumented `createdAt`) and reads them back. */
async function startUpstream(): Promise<string> {
  const pets = new Map<number, Record<string, unknown>>();
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url === '/v1/pets') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const pet = { id: 500 + pets.size, name: body['name'], categoryId: body['categoryId'], createdAt: '2026-01-01T00:00:00Z' };
        pets.set(pet.id, pet);
        return send(201, pet);
      }
      const pet = pets.get(Number(/^\/v1\/pets\/(\d+)$/.exec(req.url ?? '')?.[1]));
      if (req.method === 'GET' && pet !== undefined) return send(200, pet);
      send(404, { code: 'NOT_FOUND', message: 'No such animal.', status: 404 });
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
}

async function call(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${proxy.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.text();
}

beforeAll(async () => {
  proxy = await startProxy({ model: await loadModel(), upstream: await startUpstream(), port: 0, shadow: true, mock: { adminToken: TOKEN, data: new Map() } });
  browser = await launchChromium();
  page = await openConsole(browser, proxy.origin, TOKEN, KEY);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await new Promise<void>((resolve) => (upstream === undefined ? resolve() : upstream.close(() => resolve())));
});

describe('the console of proxy --shadow', () => {
  it('shows each difference with the request and both answers, and filters to the exchanges that differ', async () => {
    await page.getByRole('tab', { name: /Requests/ }).click();
    await call('POST', '/pets', { name: 'Rex', categoryId: 7 });
    await call('GET', '/pets/500');
    await call('GET', '/pets/999');
    const create = page.locator('button.request').filter({ hasText: 'POST' });
    await create.waitFor();
    expect(await create.innerText()).toContain('shadow: 1 difference');
    const missing = page.locator('button.request').filter({ hasText: '/v1/pets/999' });
    await missing.waitFor();
    expect(await missing.innerText()).toContain('shadow: agrees');
    await create.click();
    const details = page.locator('li', { has: create }).locator('.details');
    // The request, the difference (kind, where, each side), the mock's answer and the backend's.
    expect(await details.innerText()).toContain('"name": "Rex"');
    expect(await details.locator('table.differences tbody tr').allInnerTexts()).toEqual(['missing\t/createdAt\t"2026-01-01T00:00:00Z"\tabsent']);
    const text = await details.innerText();
    expect(text).toMatch(/Mock answer 201[\s\S]*"id": 1[\s\S]*Backend answer 201[\s\S]*"id": 500[\s\S]*"createdAt"/i);
    await page.locator('#request-differences').check();
    const shown = await page.locator('button.request').allInnerTexts();
    expect(shown).toHaveLength(2);
    for (const line of shown) expect(line).toContain('shadow: 1 difference');
    await page.locator('#request-differences').uncheck();
    expect(await page.locator('button.request').count()).toBe(3);
  });
});
