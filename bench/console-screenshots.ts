import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../model/loader.js';
import { DEFAULT_API_KEY, startMock } from '../mock/index.js';

/**
 * `npm run docs:console`: screenshots of the console's main views, light and dark, into docs/console/ (the README
 * shows them). A mock on a free loopback port with the demo pets and a few requests of each kind; Debian's
 * Chromium through playwright-core (`CHROMIUM_PATH`, default /usr/bin/chromium).
 */
const OUT = join(PACKAGE_ROOT, 'docs', 'console');
const TOKEN = 'screenshots-admin';
mkdirSync(OUT, { recursive: true });

const mock = await startMock({ port: 0, adminToken: TOKEN });
const key = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const json = { ...key, 'content-type': 'application/json' };
await fetch(`${mock.baseUrl}/pets?status=available&limit=5`, { headers: key });
await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: json, body: '{"name":"Biscuit","categoryId":9223372036854775807,"status":"pending"}' });
await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":"seven"}' });
await fetch(`${mock.baseUrl}/pets/3`, { headers: key });
await fetch(`${mock.baseUrl}/pets/404`, { headers: key });
await fetch(`${mock.baseUrl}/pets`);
await fetch(`${mock.baseUrl}/pets/1`, { headers: { ...key, prefer: 'code=404' } });

const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${mock.origin}/__admin/`);
    await shot(page, `sign-in-${scheme}`);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.locator('#api-key').fill(DEFAULT_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('cell', { name: 'Biscuit' }).waitFor();
    await shot(page, `resources-${scheme}`);
    await page.getByRole('button', { name: /^Edit pet 2$/ }).click();
    await page.getByLabel(/categoryId/).fill('two');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'INVALID_BODY' }).waitFor();
    await shot(page, `edit-${scheme}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('tab', { name: /Requests/ }).click();
    await page.locator('button.request').filter({ hasText: 'INVALID_BODY' }).first().click();
    await shot(page, `requests-${scheme}`);
    await page.getByRole('tab', { name: 'Operations' }).click();
    await page.locator('button.operation').filter({ hasText: 'getPet' }).click();
    await page.getByLabel(/Force status/).selectOption('404');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#answer-status').filter({ hasText: '404' }).waitFor();
    await shot(page, `operations-${scheme}`);
    await page.getByRole('tab', { name: 'Health' }).click();
    await page.getByText('Undocumented statuses').waitFor();
    await shot(page, `health-${scheme}`);
    await context.close();
  }
} finally {
  await browser.close();
  await mock.close();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  process.stdout.write(`docs/console/${name}.png\n`);
}
