import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { judgeStream } from '../judge/stream-judge.js';
import { createMock, startMock } from '../mock/index.js';
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

  test('POST /chat/completions with stream: true answers server-sent events, each a documented chunk', async () => {
    const response = await chat({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const content = (await operation()).responses.find((r) => r.status === '200')!.contents.find((c) => c.stream !== undefined)!;
    const chunks = response.chunks ?? [];
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(judgeStream(content.stream!, chunks.join('')).problems).toEqual([]);
  });

  test('POST /chat/completions answers a documented completion (its schemas carry nullable beside anyOf)', async () => {
    const response = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(answerProblem(await operation(), response)).toBeUndefined();
    expect(Array.isArray(response.json.choices)).toBe(true);
  });
});

describe.skipIf(OPENAI_SPEC === undefined)(`The suite on the mock of OpenAI's description${OPENAI_SPEC === undefined ? ` (${absentReason(OPENAI)})` : ''}`, () => {
  test('its catalogue builds, and its chat checks pass, meeting no schema that cannot be compiled', async () => {
    const mock = await startMock({ spec: OPENAI_SPEC!, port: 0, apiKeys: [KEY] });
    try {
      const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: OPENAI_SPEC!, runs: 3 };
      const ids = await listCheckIds(target);
      expect(ids.length).toBeGreaterThan(700);
      const chosen = ['createChatCompletion.stream', 'createChatCompletion.invalid-body', 'auth.createChatCompletion', 'listChatCompletions.invalid-query'];
      expect(ids).toEqual(expect.arrayContaining(chosen));
      for (const id of chosen) {
        const outcome = await runCheck(id, target);
        const said = outcome.ok ? (outcome.skipped ?? '') : outcome.report;
        expect(said, id).not.toMatch(/cannot be used without|cannot be compiled|ANSWER_FAILED/);
        // A parent the suite cannot make (a create answered outside its own schema) costs only its sub-resources' checks.
        expect(outcome.ok ? undefined : outcome.report, id).toBeUndefined();
      }
    } finally {
      await mock.close();
    }
  }, 240_000);
});

const TRAIN = 'train-travel/openapi.yaml';
const TRAIN_SPEC = sharedCorpusFile(TRAIN);
/** The trip id the description gives as an example: seven hex digits in its first group, so no uuid. */
const BAD_TRIP = '4f4e4e1-c824-4d63-b37a-d8d698862f1d';

describe.skipIf(TRAIN_SPEC === undefined)(`Train Travel's description${TRAIN_SPEC === undefined ? ` (${absentReason(TRAIN)})` : ''}`, () => {
  test('its trip id example that is no uuid is left out of every schema, so never served nor sent', async () => {
    const model = await loadModel(TRAIN_SPEC!);
    const held: string[] = [];
    const seen = new Set<object>();
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null || seen.has(node)) return;
      seen.add(node);
      if (!Array.isArray(node) && Object.values(node).some((value) => value === BAD_TRIP || (Array.isArray(value) && value.includes(BAD_TRIP)))) held.push(at);
      for (const [key, value] of Object.entries(node)) if (key !== 'validate') walk(value, `${at}/${key}`);
    };
    for (const op of model.operations) walk({ body: op.body?.schema, responses: op.responses.map((response) => response.contents.map((content) => content.schema)) }, op.operationId);
    expect(held).toEqual([]);
    expect(model.details?.some((line) => line.includes(`Trip/properties/id: "${BAD_TRIP}"`))).toBe(true);
    const mock = await createMock({ model, data: new Map(), apiKeys: [KEY] });
    const trips = call(mock.handle, { url: `${model.basePath}/trips?origin=efdbb9d1-02c2-4bc3-afb7-6788d8782b1e&destination=b2e783e1-c824-4d63-b37a-d8d698862f1d&date=2024-02-01T09:00:00Z`, headers: { authorization: `Bearer ${KEY}` } });
    expect(trips.status).toBe(200);
    expect(trips.body).not.toContain(BAD_TRIP);
  });

  test("the suite's whole catalogue passes on its mock: no check sends the example back for a 400", async () => {
    const mock = await startMock({ spec: TRAIN_SPEC!, port: 0, apiKeys: [KEY] });
    try {
      const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: TRAIN_SPEC!, runs: 5 };
      const failed: string[] = [];
      for (const id of await listCheckIds(target)) {
        const outcome = await runCheck(id, target);
        if (!outcome.ok) failed.push(outcome.report);
      }
      expect(failed).toEqual([]);
    } finally {
      await mock.close();
    }
  }, 240_000);
});
