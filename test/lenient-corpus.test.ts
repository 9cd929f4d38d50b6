import { describe, expect, test } from 'vitest';
import { createMock } from '../mock/index.js';
import { loadModel } from '../model/loader.js';
import { answerProblem } from './answer-check.js';
import { call } from './in-process.js';
import { absentReason, sharedCorpusFile } from './shared-corpus.js';

/**
 * Public descriptions read as their authors meant them (spec/DECISIONS.md › D130-D139), on the real files of the
 * shared corpus: each describe skips, and says why, where its file is absent.
 */
const OPENAI = 'openai/openapi.yaml';
const OPENAI_SPEC = sharedCorpusFile(OPENAI);
const KEY = 'lenient-key';

describe.skipIf(OPENAI_SPEC === undefined)(`OpenAI's description${OPENAI_SPEC === undefined ? ` (${absentReason(OPENAI)})` : ''}`, () => {
  const ready = (async () => {
    const model = await loadModel(OPENAI_SPEC!);
    return { model, mock: await createMock({ model, data: new Map(), apiKeys: [KEY] }) };
  })();
  const chat = (body: unknown) => ready.then(({ mock }) => call(mock.handle, {
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  }));
  const operation = () => ready.then(({ model }) => model.operations.find((op) => op.operationId === 'createChatCompletion')!);

  test('its 3.0 keywords in a 3.1 file are counted once per kind in the start-up notes', async () => {
    const { model } = await ready;
    const nullable = model.notes.filter((note) => /\bnullable\b/.test(note));
    expect(nullable).toHaveLength(2);
    expect(nullable[0]).toMatch(/^\d+ schemas: /);
  });

  test('POST /chat/completions answers a documented completion (its schemas carry nullable beside anyOf)', async () => {
    const response = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(answerProblem(await operation(), response)).toBeUndefined();
    expect(Array.isArray(response.json.choices)).toBe(true);
  });
});
