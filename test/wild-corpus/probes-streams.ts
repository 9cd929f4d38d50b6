import { expect } from 'vitest';
import { expectStatus, expectSuccess, object, records, type WildProbe } from './wild-client.js';

// Probes of the OpenAPI 3.2 spec with streams (spec/wild/README.md): what a front-end developer building a chat
// interface tries first. Each stream is read as the spec frames it: Server-Sent Events, JSON Lines, JSON text sequences.

/** The data of each Server-Sent Event of a body, in order (`[DONE]` kept as text). */
function sseData(text: string): string[] {
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n'));
}

const conversation = { model: 'small-1', messages: [{ role: 'user', content: 'Say hello.' }] };

/** assistant-streams-3.2.yaml: a chat-completions-shaped API in OpenAPI 3.2. */
export const assistant: Record<string, WildProbe> = {
  '"stream": true answers chunks as server-sent events ending with data: [DONE], and the completion reads back': async ({ call }) => {
    const answer = await call('POST', '/chat/completions', { json: { ...conversation, stream: true } });
    expectStatus(answer, 200);
    expect(answer.type).toBe('text/event-stream');
    const data = sseData(answer.text);
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((one) => JSON.parse(one) as Record<string, unknown>);
    for (const chunk of chunks) expect(chunk['object']).toBe('chat.completion.chunk');
    const id = String(chunks[0]!['id']);
    expect(chunks.every((chunk) => chunk['id'] === id)).toBe(true);
    const stored = await call('GET', `/chat/completions/${encodeURIComponent(id)}`);
    expectStatus(stored, 200);
    expect(object(stored)['messages']).toEqual(conversation.messages);
  },
  'without "stream" the same create answers one JSON completion': async ({ call }) => {
    const answer = await call('POST', '/chat/completions', { json: conversation });
    expectStatus(answer, 200);
    expect(answer.type).toBe('application/json');
    expect(object(answer)['object']).toBe('chat.completion');
  },
  'a bad conversation is a 400 in the error shape, streamed or not': async ({ call }) => {
    const answer = await call('POST', '/chat/completions', { json: { model: 'small-1', messages: [], stream: true } });
    expectStatus(answer, 400);
    expect(object(answer)['error']).toBeTypeOf('object');
  },
  'Accept: text/event-stream follows a run as named events (3.2 itemSchema)': async ({ call }) => {
    const answer = await call('POST', '/runs', { json: { instructions: 'count' }, headers: { accept: 'text/event-stream' } });
    expectStatus(answer, 200);
    expect(answer.type).toBe('text/event-stream');
    const names = answer.text.split('\n').filter((line) => line.startsWith('event: ')).map((line) => line.slice(7));
    expect(names[0]).toBe('run.created');
    expect(names.at(-1)).toBe('run.completed');
    for (const data of sseData(answer.text)) expect(JSON.parse(data)).toHaveProperty('run_id');
  },
  'the export answers JSON Lines, or JSON text sequences by Accept; its whole query string is checked': async ({ call }) => {
    const lines = await call('GET', '/exports/completions?model=small-1&since=0');
    expectSuccess(lines);
    expect(lines.type).toBe('application/jsonl');
    const values = lines.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(values.length).toBeGreaterThanOrEqual(2);
    for (const value of values) expect(Object.keys(value).sort()).toEqual(['created', 'id', 'model']);
    const sequence = await call('GET', '/exports/completions', { headers: { accept: 'application/json-seq' } });
    expect(sequence.type).toBe('application/json-seq');
    expect(sequence.text.startsWith('\u001e')).toBe(true);
    expectStatus(await call('GET', '/exports/completions?since=-1'), 400);
    expectStatus(await call('GET', '/exports/completions?colour=red'), 400);
  },
  'QUERY searches with a body, and PURGE (an additional operation) is served': async ({ call }) => {
    const found = await call('QUERY', '/chat/searches', { json: { text: 'hello' } });
    expectStatus(found, 200);
    expect(records(found, 'data').length).toBeGreaterThan(0);
    expectStatus(await call('QUERY', '/chat/searches', { json: { text: '' } }), 400);
    expectStatus(await call('PURGE', '/cache'), 204);
    expectStatus(await call('PURGE', '/cache', { auth: false }), 401);
  },
};
