import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (no browser download; `CHROMIUM_PATH` overrides). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Headless Chromium for the browser tests, with the flags this machine's closed network needs (no background
 * networking, updates or sync, whose refused connections would otherwise flood the run); only loopback addresses
 * are contacted. Errors: names the Debian package to install when Chromium is missing.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get update && apt-get install -y chromium, as root; .ci/run does this).`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/**
 * A tab on a page served from another loopback origin than the server under test, as a front-end in development
 * is: its `fetch` calls are cross-origin, so CORS applies. `close` stops the page's server and the tab's context.
 */
export async function foreignPage(browser: Browser): Promise<{ page: Page; origin: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>front-end</title><p>A page on another origin.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  return { page, origin, close: async () => void (await Promise.all([context.close(), new Promise((resolve) => server.close(resolve))])) };
}
