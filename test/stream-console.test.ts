import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { launchChromium, openConsole } from './console-browser.js';

/**
 * The console on an OpenAPI 3.2 spec with streams (D85, D87): operations grouped by tags nested with `parent`,
 * an `audience` tag shown beside its operation, and a streamed answer shown as it flows. Headless Chromium from
 * Debian's `chromium` package; only loopback addresses are contacted.
 */

const SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'assistant-streams-3.2.yaml');
const TOKEN = 'stream-console-admin';
const KEY = 'stream-console-key';
let mock: StartedMock;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mock = await startMock({ spec: SPEC, port: 0, adminToken: TOKEN, apiKeys: [KEY] });
  browser = await launchChromium();
  page = await openConsole(browser, mock.origin, TOKEN, KEY);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('the console on a 3.2 spec with streams', () => {
  it('groups the operations by tag, Completions and Runs nested under Assistant, the audience tag as a badge', async () => {
    await page.getByRole('tab', { name: 'Operations' }).click();
    const assistant = page.locator('li.operation-group').filter({ has: page.locator('h3', { hasText: /^Assistant$/ }) });
    await assistant.locator('h3', { hasText: /^Completions$/ }).waitFor();
    expect(await assistant.locator('button.operation').filter({ hasText: 'createChatCompletion' }).count()).toBe(1);
    expect(await assistant.locator('h3', { hasText: /^Runs$/ }).count()).toBe(1);
    const purge = page.locator('button.operation').filter({ hasText: 'purgeCache' });
    expect(await purge.textContent()).toContain('Maintenance');
    expect(await page.locator('li.operation-group > h3', { hasText: /^Exports$/ }).count()).toBe(1);
  });

  it('shows a streamed create as it flows, then how many pieces it came in', async () => {
    await page.locator('button.operation').filter({ hasText: 'createChatCompletion' }).click();
    await page.locator('#operation-body').fill(JSON.stringify({ model: 'small-1', messages: [{ role: 'user', content: 'hi' }], stream: true }));
    await page.locator('#prefer-delay').fill('300');
    await page.getByRole('button', { name: 'Send' }).click();
    // While it flows: the first chunk is shown before the stream has ended.
    await page.locator('#answer-time').filter({ hasText: 'streaming' }).waitFor({ timeout: 5000 });
    expect(await page.locator('#answer-body').textContent()).toContain('chat.completion.chunk');
    expect(await page.locator('#answer-body').textContent()).not.toContain('[DONE]');
    await page.locator('#answer-time').filter({ hasText: 'stream ended' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#answer-body').textContent()).toContain('data: [DONE]');
  });
});
