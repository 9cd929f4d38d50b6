import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { startProxy } from './proxy.js';

/**
 * The validating proxy in front of an upstream that streams (D85): the events reach the client as the upstream
 * sends them, not once the stream has ended, and each event is judged against the spec once the stream is over.
 */

const SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'assistant-streams-3.2.yaml');
const KEY = 'stream-key';
const ADMIN = 'admin-token';
const conversation = JSON.stringify({ model: 'small-1', messages: [{ role: 'user', content: 'hi' }], stream: true });
let model: ApiModel;
let running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  model = await loadModel(SPEC);
});

afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

/** Reads a streamed answer, noting when each piece arrived (ms since the request was sent). */
async function readPieces(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; pieces: { at: number; text: string }[] }> {
  const sent = performance.now();
  const response = await request(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers }, body });
  const pieces: { at: number; text: string }[] = [];
  for await (const piece of response.body) pieces.push({ at: performance.now() - sent, text: Buffer.from(piece as Uint8Array).toString('utf8') });
  return { status: response.statusCode, pieces };
}

async function violations(origin: string): Promise<{ byRule: Record<string, number> }> {
  const response = await request(`${origin}/__admin/violations`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return (await response.body.json()) as { byRule: Record<string, number> };
}

/** An upstream that streams `events` (SSE blocks) with `gapMs` between them, whatever it is asked. */
async function sseUpstream(events: readonly string[], gapMs: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    let next = 0;
    const step = (): void => {
      if (next === events.length) return void res.end();
      res.write(events[next++]);
      setTimeout(step, gapMs);
    };
    step();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the proxy passes streams through as they flow', () => {
  it('relays the mock\'s paced events piece by piece, and finds nothing wrong with them', async () => {
    const upstream = await startMock({ spec: SPEC, port: 0, apiKeys: [KEY] });
    running.push(upstream);
    const proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, mock: { adminToken: ADMIN } });
    running.push(proxy);
    const { status, pieces } = await readPieces(`${proxy.baseUrl}/chat/completions`, { prefer: 'delay=120' }, conversation);
    expect(status).toBe(200);
    const text = pieces.map((piece) => piece.text).join('');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // Four chunks and the terminator, 120 ms apart: several pieces, the last well after the first.
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.at(-1)!.at - pieces[0]!.at).toBeGreaterThan(300);
    expect((await violations(proxy.origin)).byRule).toEqual({});
  });

  it('judges each event of an upstream\'s stream: an event off its schema and a missing terminator are violations', async () => {
    const good = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [] })}\n\n`;
    const bad = `data: ${JSON.stringify({ id: 'c1', object: 'chunk', created: 1, model: 'm', choices: [] })}\n\n`;
    const upstream = await sseUpstream([good, bad, good], 80);
    running.push(upstream);
    const proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, mock: { adminToken: ADMIN } });
    running.push(proxy);
    const { pieces } = await readPieces(`${proxy.baseUrl}/chat/completions`, {}, conversation);
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(pieces.at(-1)!.at - pieces[0]!.at).toBeGreaterThan(100);
    const { byRule } = await violations(proxy.origin);
    expect(byRule['stream.event']).toBe(1);
    expect(byRule['stream.framing']).toBe(1);
  });
});
