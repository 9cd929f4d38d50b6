import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { createMock, type Mock } from './index.js';

/**
 * A 3.1 stream schema that is the event itself (`{event, data: Chunk}` under `text/event-stream`) is framed as its
 * payload (spec/DECISIONS.md › D153), served from mock/fixtures/wrapped-stream.openapi.yaml.
 */
const SPEC = join(PACKAGE_ROOT, 'mock', 'fixtures', 'wrapped-stream.openapi.yaml');
let mock: Mock;

beforeAll(async () => {
  mock = await createMock({ spec: SPEC, apiKeys: ['k'] });
});

afterAll(async () => {
  await mock?.dispose();
});

describe('a stream schema wrapping its payload in SSE fields', () => {
  it('the model reads the event\'s data as the item, and the event names from its event member', async () => {
    const model = await loadModel(SPEC);
    const stream = model.operations[0]!.responses[0]!.contents.find((content) => content.stream !== undefined)!.stream!;
    expect(Object.keys((stream.item?.['properties'] ?? {}) as object).sort()).toEqual(['delta', 'id', 'object']);
    expect([stream.eventNames, stream.terminator]).toEqual([['completion.chunk'], '[DONE]']);
  });

  it('each data: line carries the chunk itself, under its event name, then data: [DONE] (the client asked by its body, Accept: application/json)', () => {
    const answer = mock.handle({ method: 'POST', url: '/v1/completions', headers: { authorization: 'Bearer k', 'content-type': 'application/json', accept: 'application/json' }, body: Buffer.from(JSON.stringify({ prompt: 'hi', stream: true })) });
    expect(answer.headers['content-type']).toBe('text/event-stream');
    const chunks = answer.chunks!;
    expect(chunks.at(-1)).toBe('data: [DONE]\n\n');
    const events = chunks.slice(0, -1);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      const [name, data] = event.trimEnd().split('\n');
      expect(name).toBe('event: completion.chunk');
      expect(JSON.parse(data!.slice('data: '.length))).toEqual({ id: expect.any(String), object: 'completion.chunk', delta: expect.any(String) });
    }
  });
});
