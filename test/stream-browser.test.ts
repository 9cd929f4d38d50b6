import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { foreignPage, launchChromium } from './chromium.js';

/**
 * A documented stream read in a real browser (D85), as a chat front-end reads one: `fetch` from a page on another
 * origin, the body read with a `ReadableStream` reader, each piece timed as it arrives. Headless Chromium from
 * Debian's `chromium` package, driven by playwright-core; only loopback addresses are contacted.
 */

const SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'assistant-streams-3.2.yaml');
const KEY = 'browser-stream-key';
let mock: StartedMock;
let browser: Browser;
let tab: Awaited<ReturnType<typeof foreignPage>>;

beforeAll(async () => {
  mock = await startMock({ spec: SPEC, port: 0, apiKeys: [KEY] });
  browser = await launchChromium();
  tab = await foreignPage(browser);
}, 60_000);

afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await mock?.close();
});

/** What the page read: the status, the media type and each piece of the body with the ms since `fetch` was called. */
interface Read {
  status: number;
  type: string;
  pieces: { at: number; text: string }[];
}

function readInPage(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Read> {
  return tab.page.evaluate(
    async ({ url, init }) => {
      const started = performance.now();
      const response = await fetch(url, init);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const pieces: { at: number; text: string }[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pieces.push({ at: performance.now() - started, text: value });
      }
      return { status: response.status, type: response.headers.get('content-type') ?? '', pieces };
    },
    { url, init },
  );
}

describe('a chat page reading a streamed completion', () => {
  it('sees the server-sent events arrive piece by piece, at distinct times, ending with data: [DONE]', async () => {
    const body = JSON.stringify({ model: 'small-1', messages: [{ role: 'user', content: 'Say hello.' }], stream: true });
    const read = await readInPage(`${mock.baseUrl}/chat/completions`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', Prefer: 'delay=100' }, body });
    expect(read.status).toBe(200);
    expect(read.type).toBe('text/event-stream');
    expect(read.pieces.length).toBeGreaterThanOrEqual(3);
    const times = read.pieces.map((piece) => piece.at);
    // Pieces 100 ms apart arrive apart, not all at once. A stalled machine can deliver one piece late and so close one
    // gap to the next, never most of them: most gaps exceed 40 ms, where a buffered answer has none.
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    expect(gaps.filter((gap) => gap > 40).length, `gaps ${gaps.map((gap) => gap.toFixed(0)).join(', ')} ms`).toBeGreaterThan(gaps.length / 2);
    const text = read.pieces.map((piece) => piece.text).join('');
    const data = text.split('\n\n').filter((block) => block !== '').map((block) => block.replace(/^data: /, ''));
    expect(data.at(-1)).toBe('[DONE]');
    for (const chunk of data.slice(0, -1)) expect(JSON.parse(chunk)).toMatchObject({ object: 'chat.completion.chunk' });
  });

  it('reads the JSON Lines export line by line, and searches with the QUERY method across origins', async () => {
    const lines = await readInPage(`${mock.baseUrl}/exports/completions`, { method: 'GET', headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/jsonl' } });
    expect(lines.type).toBe('application/jsonl');
    expect(lines.pieces.length).toBeGreaterThanOrEqual(2);
    const found = await readInPage(`${mock.baseUrl}/chat/searches`, { method: 'QUERY', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'hello' }) });
    expect(found.status).toBe(200);
    expect(JSON.parse(found.pieces.map((piece) => piece.text).join(''))).toMatchObject({ object: 'list' });
  });
});
