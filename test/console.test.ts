import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, loadApi, startMock, type StartedMock } from '../mock/index.js';
import { launchChromium, openConsole } from './console-browser.js';

/**
 * The console (README › Console) in a real browser: Debian's Chromium through playwright-core, against a mock on a
 * loopback port. Every change made in the page is checked through the API, as a client would see it.
 */

const TOKEN = 'console-test-admin';
const KEY = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const run = promisify(execFile);

let mock: StartedMock;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mock = await startMock({ api: await loadApi(), port: 0, adminToken: TOKEN });
  browser = await launchChromium();
  page = await openConsole(browser, mock.origin, TOKEN, DEFAULT_API_KEY);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

async function read(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${mock.baseUrl}${path}`, { headers: KEY });
  return { status: response.status, text: await response.text() };
}

/** Presses Tab until the focused element matches `selector` (at most 60 times); keyboard only, no click. */
async function tabTo(on: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await on.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
    await on.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('signing in', () => {
  it('a wrong token shows nothing of the state, keeps nothing and puts nothing in the URL', async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(`${mock.origin}/__admin/`);
    await other.locator('#token').fill('not-the-token');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
    const text = await other.locator('body').innerText();
    for (const name of ['Mittens', 'Rex', 'listPets', 'Pet Store']) expect(text, name).not.toContain(name);
    expect(await other.locator('#records tbody tr').count()).toBe(0);
    expect(await other.locator('#nav').isHidden()).toBe(true);
    expect(await other.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(other.url()).toBe(`${mock.origin}/__admin/`);
    await context.close();
  });

  it('the right token shows the spec and its records, and keeps the token for the tab only (sessionStorage)', async () => {
    expect(await page.locator('#spec-title').textContent()).toBe('Pet Store Service — Animals Interface · 1.0.0');
    await page.getByRole('cell', { name: 'Mittens' }).waitFor();
    expect(await page.evaluate<string[]>('Object.keys(sessionStorage)')).toContain('openapi-harness-console-token');
    expect(await page.evaluate<string[]>('Object.keys(localStorage)')).toEqual([]);
    expect(page.url()).not.toContain(TOKEN);
  });
});

describe('resources', () => {
  it('creates, edits and deletes a record through the form; each is seen through the API', async () => {
    await page.getByRole('button', { name: 'New record' }).click();
    await page.locator('#record-name').fill('Made in the console');
    await page.locator('#record-categoryId').fill('9223372036854775807');
    await page.locator('#record-status').selectOption({ label: 'pending' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Made in the console' }).waitFor();
    const id = /pet (\d+)/.exec((await page.locator('#resource-message').textContent()) ?? '')![1]!;
    expect((await read(`/pets/${id}`)).text).toBe(`{"id":${id},"name":"Made in the console","categoryId":9223372036854775807,"status":"pending"}`);
    expect(await page.locator(`tr[data-id="${id}"]`).innerText()).toContain('9223372036854775807');

    await page.getByRole('button', { name: `Edit pet ${id}` }).click();
    await page.locator('#record-name').fill('Edited in the console');
    await page.locator('#record-status').selectOption({ label: 'sold' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Edited in the console' }).waitFor();
    expect((await read(`/pets/${id}`)).text).toBe(`{"id":${id},"name":"Edited in the console","categoryId":9223372036854775807,"status":"sold"}`);

    await page.getByRole('button', { name: `Delete pet ${id}` }).click();
    await page.locator(`tr[data-id="${id}"]`).waitFor({ state: 'detached' });
    expect((await read(`/pets/${id}`)).status).toBe(404);
  });

  it('an invalid edit shows the mock’s own message (the one createPet gives) and changes nothing', async () => {
    const before = await read('/pets/2');
    const createPet = (await (await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: '{"name":"x","categoryId":"two"}' })).json()) as { message: string };
    await page.getByRole('button', { name: 'Edit pet 2' }).click();
    await page.locator('#record-categoryId').fill('two');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.locator('#record-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`INVALID_BODY: ${createPet.message}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await read('/pets/2')).toEqual(before);
  });

  it('fills a resource with generated records and pages through them', async () => {
    await page.locator('#fill-count').fill('45');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.locator('#page-info').filter({ hasText: /of 5[3-9]/ }).waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('#page-info').filter({ hasText: /^21–40 of/ }).waitFor();
    await page.locator('#status-filter, #filter-status').selectOption('sold');
    await page.locator('#page-info').filter({ hasText: /^1–/ }).waitFor();
    for (const row of await page.locator('#records tbody tr').all()) expect(await row.innerText()).toContain('sold');
    await page.locator('#filter-status').selectOption('');
    await page.getByRole('button', { name: 'Reset to starting data' }).click();
    await page.locator('#page-info').filter({ hasText: '1–8 of 8' }).waitFor();
  });
});

describe('the data file', () => {
  it('exports the file --data reads and imports one back (an array for the resource shown, or an object)', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export data file' }).click();
    const download = await downloading;
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { pets: { name: string }[] };
    expect(exported.pets.map((pet) => pet.name)).toContain('Mittens');
    expect(mock.api.resources[0]!.validateRecord(exported.pets[0])).toBe(true);

    await page.locator('#import').setInputFiles({ name: 'pets.json', mimeType: 'application/json', buffer: Buffer.from('[{"id":70,"name":"Imported","categoryId":9223372036854775806,"status":"sold"}]') });
    await page.getByRole('cell', { name: 'Imported' }).waitFor();
    expect((await read('/pets?limit=100')).text).toBe('[{"id":70,"name":"Imported","categoryId":9223372036854775806,"status":"sold"}]');

    await page.locator('#import').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('[{"id":1,"name":"No category"}]') });
    await page.locator('#resource-message').filter({ hasText: 'entry 0 is not a Pet' }).waitFor();
    expect((await read('/pets?limit=100')).text, 'a bad file changes nothing').toContain('"Imported"');

    await page.locator('#import').setInputFiles({ name: 'data.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await page.getByRole('cell', { name: 'Mittens' }).waitFor();
    expect((await read('/pets?limit=100')).text).not.toContain('"Imported"');
  });
});

describe('requests', () => {
  it('a request made by curl appears within a second, with its operation, status and a replay line', async () => {
    await page.getByRole('tab', { name: /Requests/ }).click();
    const started = Date.now();
    await run('curl', ['-sS', '-H', `Authorization: Bearer ${DEFAULT_API_KEY}`, `${mock.baseUrl}/pets?limit=2&status=sold`]);
    const item = page.locator('button.request').filter({ hasText: '/v1/pets?limit=2&status=sold' });
    await item.waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await item.innerText()).toMatch(/200[\s\S]*GET[\s\S]*listPets[\s\S]*valid/);
    await item.click();
    const details = page.locator('li', { has: item }).locator('.details');
    expect(await details.innerText()).toContain('user-agent: curl/');
    expect(await details.locator('.curl code').textContent()).toBe(`curl -sS -i '${mock.baseUrl}/pets?limit=2&status=sold' -H "Authorization: Bearer $OPENAPI_HARNESS_API_KEY" -H 'accept: */*'`);
    expect(await details.innerText()).not.toContain(DEFAULT_API_KEY);
  });

  it('filters by operation and status, and clears', async () => {
    await read('/pets/424242');
    await page.locator('button.request').filter({ hasText: '/v1/pets/424242' }).waitFor();
    await page.locator('#request-status').fill('404');
    for (const item of await page.locator('button.request').all()) expect(await item.innerText()).toMatch(/^404/);
    await page.locator('#request-status').fill('');
    await page.locator('#request-operation').selectOption('listPets');
    for (const item of await page.locator('button.request').all()) expect(await item.innerText()).toContain('listPets');
    await page.locator('#request-operation').selectOption('');
    await page.getByRole('button', { name: 'Clear journal' }).click();
    await page.locator('#requests-empty').waitFor();
    expect(mock.journal.size).toBe(0);
  });
});

describe('operations', () => {
  it('a forced Prefer: code=404 is answered 404, as the client sees it', async () => {
    await page.getByRole('tab', { name: 'Operations' }).click();
    await page.locator('button.operation').filter({ hasText: 'getPet' }).click();
    await page.locator('#param-path-petId').fill('1');
    await page.locator('#prefer-code').selectOption('404');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#answer-status').filter({ hasText: '404' }).waitFor();
    expect(JSON.parse((await page.locator('#answer-body').textContent())!)).toMatchObject({ code: 'PET_NOT_FOUND', status: 404 });
    const [entry] = mock.journal.entries(1);
    expect(entry).toMatchObject({ status: 404, operationId: 'getPet', url: '/v1/pets/1', headers: { prefer: 'code=404' } });
  });

  it('sends a createPet body from its form and shows the 201', async () => {
    await page.locator('button.operation').filter({ hasText: 'createPet' }).click();
    await page.locator('#operation-body').fill('{"name":"Sent from Operations","categoryId":3}');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#answer-status').filter({ hasText: '201' }).waitFor();
    expect(await page.locator('#answer-body').textContent()).toContain('"name": "Sent from Operations"');
  });
});

describe('health', () => {
  it('shows the spec, the store and the reload state', async () => {
    await page.getByRole('tab', { name: 'Health' }).click();
    const health = page.locator('#health');
    await health.getByText('Undocumented statuses').waitFor();
    const text = await health.innerText();
    expect(text).toContain('1.0.0');
    expect(text).toMatch(/Kind\s+memory/);
    expect(text).toContain('No reload since start');
  });
});

describe('live', () => {
  it('a second tab sees the first tab’s change, and a script’s, without a reload', async () => {
    const second = await openConsole(browser, mock.origin, TOKEN);
    await page.getByRole('tab', { name: 'Resources' }).click();
    await page.getByRole('button', { name: 'New record' }).click();
    await page.locator('#record-name').fill('From the first tab');
    await page.locator('#record-categoryId').fill('4');
    await page.getByRole('button', { name: 'Save' }).click();
    await second.getByRole('cell', { name: 'From the first tab' }).waitFor({ timeout: 2000 });
    await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: '{"name":"From a script","categoryId":5}' });
    await second.getByRole('cell', { name: 'From a script' }).waitFor({ timeout: 2000 });
    await fetch(`${mock.origin}/__admin/reset`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    await second.getByRole('cell', { name: 'From a script' }).waitFor({ state: 'detached', timeout: 2000 });
    await second.context().close();
  });
});

describe('keyboard only', () => {
  it('signs in, creates and deletes a record, and moves between views, without a pointer', async () => {
    const context = await browser.newContext();
    const kb = await context.newPage();
    kb.on('dialog', (dialog) => void dialog.accept());
    await kb.goto(`${mock.origin}/__admin/`);
    await tabTo(kb, '#token');
    await kb.keyboard.type(TOKEN);
    await kb.keyboard.press('Enter');
    await kb.getByRole('cell', { name: 'Mittens' }).waitFor();

    await tabTo(kb, '#new-record');
    await kb.keyboard.press('Enter');
    expect(await kb.evaluate<string>('document.activeElement?.id')).toBe('record-name');
    await kb.keyboard.type('Typed only');
    await kb.keyboard.press('Tab');
    await kb.keyboard.type('6');
    await kb.keyboard.press('Enter');
    await kb.getByRole('cell', { name: 'Typed only' }).waitFor();
    const id = /pet (\d+)/.exec((await kb.locator('#resource-message').textContent()) ?? '')![1]!;
    expect((await read(`/pets/${id}`)).text).toBe(`{"id":${id},"name":"Typed only","categoryId":6}`);

    await tabTo(kb, `[aria-label="Delete pet ${id}"]`);
    await kb.keyboard.press('Enter');
    await kb.locator(`tr[data-id="${id}"]`).waitFor({ state: 'detached' });
    expect((await read(`/pets/${id}`)).status).toBe(404);

    await tabTo(kb, '#tab-resources');
    await kb.keyboard.press('ArrowRight');
    expect(await kb.locator('#tab-requests').getAttribute('aria-selected')).toBe('true');
    expect(await kb.locator('#view-requests').isVisible()).toBe(true);
    await kb.keyboard.press('ArrowRight');
    expect(await kb.evaluate<string>('document.activeElement?.id')).toBe('tab-operations');
    await kb.keyboard.press('Escape');
    await kb.keyboard.press('End');
    // End selects the last tab; its view is shown (it may still be empty while its document loads).
    expect(await kb.locator('#tab-explain').getAttribute('aria-selected')).toBe('true');
    expect(await kb.evaluate<boolean>("document.getElementById('view-explain').hidden")).toBe(false);
    await context.close();
  });
});

describe('markup as data', () => {
  it('a record or a request holding markup is shown as text and runs nothing; the CSP refuses inline script', async () => {
    const csp = (await fetch(`${mock.origin}/__admin/`)).headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      if (dialog.type() === 'alert') alerts.push(dialog.message());
    });
    const markup = '<img src=x onerror=alert(1)>';
    await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: markup, categoryId: 1 }) });
    await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: '<script>alert(2)</script>', categoryId: 'x' }) });
    await page.getByRole('tab', { name: 'Resources' }).click();
    await page.getByRole('cell', { name: markup, exact: true }).waitFor();
    expect(await page.locator('#records img').count()).toBe(0);
    await page.getByRole('tab', { name: /Requests/ }).click();
    await page.locator('button.request').filter({ hasText: 'INVALID_BODY' }).first().click();
    await page.getByText('"name": "<script>alert(2)</script>"').waitFor();
    expect(await page.locator('#requests script, #requests img').count()).toBe(0);
    const inline = await page.evaluate<boolean>(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return window.__inlineRan ?? false;
    })()`);
    expect(inline, 'the CSP blocks an inline script').toBe(false);
    await page.waitForTimeout(200);
    expect(alerts).toEqual([]);
  });
});
