import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, as test/browser.test.ts launches it (no browser download; `CHROMIUM_PATH` overrides). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless Chromium for the console's tests; only loopback addresses are contacted. Errors name the package to install. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium; .ci/run does this).`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** A new tab on the console of the mock at `origin`, signed in with `token` (and `apiKey` for the Operations view). */
export async function openConsole(browser: Browser, origin: string, token: string, apiKey = ''): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('dialog', (dialog) => void (dialog.type() === 'confirm' ? dialog.accept() : dialog.dismiss()));
  await page.goto(`${origin}/__admin/`);
  await page.locator('#token').fill(token);
  await page.locator('#api-key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#live.on').waitFor();
  return page;
}
