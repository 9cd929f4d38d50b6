import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../model/loader.js';
import { createMock, type Mock } from './index.js';
import type { MockResponse } from './messages.js';
import { serve } from './server.js';

/**
 * Streams the spec documents (spec/DECISIONS.md › D85-D88), in process where the answer is what matters and over a
 * socket where its timing does: which requests get a stream, how it is framed, how it is paced, and that it stops
 * when the client leaves.
 */

const SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'assistant-streams-3.2.yaml');
const KEY = 'stream-key';
let mock: Mock;

beforeAll(async () => {
  mock = await createMock({ spec: SPEC, apiKeys: [KEY] });
});

afterAll(async () => {
  await mock?.dispose();
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}): MockResponse =>
  mock.handle({ method: 'POST', url: `/v1${url}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) });
const get = (url: string, headers: Record<string, string> = {}): MockResponse => mock.handle({ method: 'GET', url: `/v1${url}`, headers: { authorization: `Bearer ${KEY}`, ...headers } });
const conversation = { model: 'small-1', messages: [{ role: 'user', content: 'hi' }] };

describe('which requests get a stream', () => {
  it('"stream": true gets Server-Sent Events; false or absent gets the JSON answer', () => {
    const streamed = post('/chat/completions', { ...conversation, stream: true });
    expect(streamed.headers['content-type']).toBe('text/event-stream');
    expect(streamed.body).toBe('');
    expect(streamed.chunks!.at(-1)).toBe('data: [DONE]\n\n');
    for (const body of [conversation, { ...conversation, stream: false }]) expect(post('/chat/completions', body).headers['content-type']).toBe('application/json');
  });

  it('Accept naming the stream asks for it without the member; the member asks for it even under Accept: application/json (D152)', () => {
    expect(post('/chat/completions', conversation, { accept: 'text/event-stream' }).chunks).toBeDefined();
    expect(post('/chat/completions', conversation, { accept: 'application/json' }).chunks).toBeUndefined();
    const streamed = post('/chat/completions', { ...conversation, stream: true }, { accept: 'application/json' });
    expect(streamed.headers['content-type']).toBe('text/event-stream');
    expect(streamed.chunks!.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('an invalid body asking for a stream is refused in the spec\'s error shape, not streamed', () => {
    const refused = post('/chat/completions', { model: 'small-1', messages: [], stream: true });
    expect(refused.status).toBe(400);
    expect(refused.chunks).toBeUndefined();
    expect(JSON.parse(refused.body)).toHaveProperty('error');
  });

  it('the journal (the console\'s Requests view) keeps a streamed answer\'s events as its body', () => {
    post('/chat/completions', { ...conversation, stream: true });
    const [entry] = mock.journal.entries(1);
    expect(entry!.response.body).toContain('chat.completion.chunk');
    expect(entry!.response.body).toContain('data: [DONE]');
  });

  it('a streamed create stores its record: the chunks name it, and a read finds it', () => {
    const streamed = post('/chat/completions', { ...conversation, stream: true });
    const first = JSON.parse(streamed.chunks![0]!.replace(/^data: /, '')) as { id: string };
    const read = get(`/chat/completions/${first.id}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body)).toMatchObject({ id: first.id, messages: conversation.messages });
  });
});

describe('framing', () => {
  it('names SSE events from the itemSchema\'s event enum, first to last', () => {
    const run = post('/runs', { instructions: 'go' }, { accept: 'text/event-stream' });
    const names = run.chunks!.map((chunk) => /^event: (.*)$/m.exec(chunk)?.[1]);
    expect(names[0]).toBe('run.created');
    expect(names.at(-1)).toBe('run.completed');
    for (const chunk of run.chunks!) expect(chunk.endsWith('\n\n')).toBe(true);
  });

  it('writes one JSON value a line for JSON Lines and RS + JSON + LF for JSON text sequences', () => {
    const lines = get('/exports/completions', { accept: 'application/jsonl' });
    for (const chunk of lines.chunks!) expect(chunk).toMatch(/^\{[^\n]*\}\n$/);
    const sequence = get('/exports/completions', { accept: 'application/json-seq' });
    for (const chunk of sequence.chunks!) expect(chunk).toMatch(/^\u001e\{[^\n]*\}\n$/);
  });

  it('checks a 3.2 querystring parameter as one object', () => {
    expect(get('/exports/completions?model=small-1&since=5').status).toBe(200);
    expect(get('/exports/completions?since=soon').status).toBe(400);
    expect(get('/exports/completions?unknown=1').status).toBe(400);
  });
});

describe('over a socket', () => {
  it('paces the events by Prefer: delay, and stops writing once the client leaves', async () => {
    // Ten pieces, counted as the server takes each one to write it.
    let taken = 0;
    const pieces = Array.from({ length: 10 }, (_, index) => `data: ${index}\n\n`);
    const counted = new Proxy(pieces, { get: (target, key, receiver) => (typeof key === 'string' && /^\d+$/.test(key) ? (taken++, target[Number(key)]) : Reflect.get(target, key, receiver)) });
    const server = await serve(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: '', chunks: counted }), { port: 0 });
    try {
      const controller = new AbortController();
      const started = performance.now();
      const response = await request(`${server.origin}/`, { headers: { prefer: 'delay=80' }, signal: controller.signal });
      const arrivals: number[] = [];
      try {
        for await (const _piece of response.body) {
          arrivals.push(performance.now() - started);
          if (arrivals.length === 3) controller.abort();
        }
      } catch {
        // The abort ends the read.
      }
      expect(arrivals[2]! - arrivals[0]!).toBeGreaterThan(120);
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Left after the third piece: at most the one already scheduled was taken, never the other six.
      expect(taken).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });
});
