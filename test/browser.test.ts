import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, loadApi, startMock, type StartedMock } from '../mock/index.js';
import { foreignPage, launchChromium } from './chromium.js';

/**
 * CORS in a real browser (README › CORS): a page served on one localhost port calls the mock on another with a
 * bearer key, as a front-end in development does. Headless Chromium from Debian's `chromium` package, driven by
 * playwright-core (no browser download). Only loopback addresses are contacted.
 */

let mock: StartedMock;
let fenced: StartedMock;
let browser: Browser;
let tab: Awaited<ReturnType<typeof foreignPage>>;
let pageOrigin: string;
let page: Page;

beforeAll(async () => {
  const api = await loadApi();
  mock = await startMock({ api, port: 0 });
  fenced = await startMock({ api, port: 0, corsOrigins: ['http://localhost:1'] });
  browser = await launchChromium();
  tab = await foreignPage(browser);
  ({ page, origin: pageOrigin } = tab);
}, 60_000);

afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await Promise.all([mock?.close(), fenced?.close()]);
});

/** What a `fetch` from the page saw: status, the headers a script may read, and the body text; or the error it threw. */
type Seen = { status: number; headers: Record<string, string>; body: string } | { error: string };

function fetchFromPage(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Seen> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        return { status: response.status, headers, body: await response.text() };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init },
  );
}

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

describe('a page on another origin', () => {
  it('is on another origin than the mock', () => {
    expect(new URL(mock.baseUrl).origin).not.toBe(pageOrigin);
    expect(page.url()).toBe(`${pageOrigin}/`);
  });

  it('lists pets with a bearer key (preflighted: Authorization is not a simple header)', async () => {
    const seen = await fetchFromPage(`${mock.baseUrl}/pets?limit=3`, { headers: auth });
    expect(seen).toMatchObject({ status: 200 });
    expect(JSON.parse((seen as { body: string }).body)).toHaveLength(3);
  });

  it('creates a pet with a JSON body and reads it back, seeing the Deprecation and Sunset headers of getPet', async () => {
    const created = await fetchFromPage(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"name":"Browser","categoryId":7}' });
    expect(created).toMatchObject({ status: 201 });
    const { id } = JSON.parse((created as { body: string }).body) as { id: number };
    const fetched = await fetchFromPage(`${mock.baseUrl}/pets/${id}`, { headers: auth });
    expect(fetched).toMatchObject({ status: 200, headers: { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } });
  });

  it('reads error bodies too: a 401 without a key, a 404 forced with Prefer', async () => {
    const refused = await fetchFromPage(`${mock.baseUrl}/pets`);
    expect(refused).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer' } });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    const forced = await fetchFromPage(`${mock.baseUrl}/pets/1`, { headers: { ...auth, Prefer: 'code=404' } });
    expect(forced).toMatchObject({ status: 404 });
  });

  it('shows up in the journal with its Origin, and never with its key', async () => {
    const journal = await (await fetch(`${new URL(mock.baseUrl).origin}/__admin/requests?limit=10`)).text();
    expect(journal).toContain(`"origin":"${pageOrigin}"`);
    expect(journal).not.toContain(DEFAULT_API_KEY);
  });

  it('is blocked by a mock whose --cors-origin list does not hold its origin', async () => {
    const seen = await fetchFromPage(`${fenced.baseUrl}/pets`, { headers: auth });
    expect(seen).toMatchObject({ error: expect.stringMatching(/TypeError|Failed to fetch/) });
  });
});
