import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { foreignPage, launchChromium } from '../test/chromium.js';
import { startUpstream, type TestUpstream } from '../test/proxy-upstreams.js';
import { ANSWERED_BY_HEADER, startProxy, VIOLATIONS_HEADER, type StartedProxy } from './proxy.js';

/**
 * A front-end page calling a backend through the validating proxy in a real browser (headless Debian Chromium
 * driven by playwright-core, as test/browser.test.ts): the upstream's CORS answers pass through (preflight
 * included), the page reads the bodies and the proxy's own headers, and a drift of the upstream shows to the page.
 */

let upstream: TestUpstream;
let broken: TestUpstream;
let proxy: StartedProxy;
let brokenProxy: StartedProxy;
let browser: Browser;
let tab: Awaited<ReturnType<typeof foreignPage>>;
let page: Page;

beforeAll(async () => {
  const model = await loadModel();
  upstream = await startUpstream(model, 'none', { cors: true });
  broken = await startUpstream(model, 'filter', { cors: true });
  proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, mock: { corsOrigins: false } });
  brokenProxy = await startProxy({ model, upstream: broken.baseUrl, port: 0, mock: { corsOrigins: false } });
  browser = await launchChromium();
  tab = await foreignPage(browser);
  ({ page } = tab);
}, 60_000);

afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await Promise.all([proxy?.close(), brokenProxy?.close(), upstream?.close(), broken?.close()]);
});

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

const auth = { Authorization: 'Bearer upstream-key' };

describe('a page calling the upstream through the proxy', () => {
  it('lists and creates with a bearer key (preflighted), reading the bodies and who answered', async () => {
    const listed = await fetchFromPage(`${proxy.baseUrl}/pets?limit=3`, { headers: auth });
    expect(listed).toMatchObject({ status: 200, headers: { [ANSWERED_BY_HEADER]: 'upstream' } });
    expect(JSON.parse((listed as { body: string }).body)).toHaveLength(3);
    const created = await fetchFromPage(`${proxy.baseUrl}/pets`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"name":"Browser","categoryId":7}' });
    expect(created).toMatchObject({ status: 201 });
    expect((created as { headers: Record<string, string> }).headers[VIOLATIONS_HEADER]).toBeUndefined();
    expect(upstream.received.some((r) => r.method === 'OPTIONS')).toBe(true);
  });

  it('sees the violations of a drifting upstream in the response header', async () => {
    const seen = await fetchFromPage(`${brokenProxy.baseUrl}/pets?status=sold`, { headers: auth });
    expect(seen).toMatchObject({ status: 200 });
    expect((seen as { headers: Record<string, string> }).headers[VIOLATIONS_HEADER]).toContain('list.filter');
  });
});
