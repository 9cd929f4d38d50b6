import type { Browser, Page } from 'playwright-core';

export { CHROMIUM, launchChromium } from './chromium.js';

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
