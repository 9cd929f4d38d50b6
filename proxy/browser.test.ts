import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../spec/model.js';
import { startUpstream, type TestUpstream } from '../test/proxy-upstreams.js';
import { ANSWERED_BY_HEADER, startProxy, VIOLATIONS_HEADER, type StartedProxy } from './proxy.js';

/**
 * A front-end page calling a backend through the validating proxy in a real browser (headless Debian Chromium
 * driven by playwright-core, as test/browser.test.ts): the upstream's CORS answers pass through (preflight
 * included), the page reads the bodies and the proxy's own headers, and a drift of the upstream shows to the page.
 */

const CHROMIUM = '/usr/bin/chromium';
let upstream: TestUpstream;
let broken: TestUpstream;
let proxy: StartedProxy;
let brokenProxy: StartedProxy;
let pages: Server;
let pageOrigin: string;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium).`);
  const model = await loadModel();
  upstream = await startUpstream(model, 'none', { cors: true });
  broken = await startUpstream(model, 'filter', { cors: true });
  proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, mock: { corsOrigins: false } });
  brokenProxy = await startProxy({ model, upstream: broken.baseUrl, port: 0, mock: { corsOrigins: false } });
  pages = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>front-end</title><p>A page on another origin.</p>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${pageOrigin}/`);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await Promise.all([proxy?.close(), brokenProxy?.close(), upstream?.close(), broken?.close(), new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)))]);
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
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
