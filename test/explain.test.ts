import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checksFor } from '../conformance/catalogue.js';
import { explain, type ExplainedFilter, type Explanation } from '../mock/explain.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { validSample } from '../model/samples.js';
import { servedListOf } from '../model/served-lists.js';
import { absentReason, sharedCorpusFile } from './shared-corpus.js';

/**
 * `openapi-harness explain` holds to what the mock and the suite do, on a real description (Redocly's Museum API,
 * ../shared/corpus/museum/openapi.yaml): every filter it lists as applied really narrows the mock's list, every
 * operation it lists as answered from an example answers that example, and the checks it lists are the suite's.
 */
const FILE = 'museum/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const KEY = 'explain-key';

describe.skipIf(SPEC === undefined)(`explain on the Museum API${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let model: ApiModel;
  let explanation: Explanation;
  let mock: StartedMock;
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const response = await fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  beforeAll(async () => {
    model = await loadModel(SPEC!);
    explanation = explain(model, checksFor(model).map((check) => ({ id: check.id, rule: check.rule })));
    mock = await startMock({ model, port: 0, apiKeys: [KEY] });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('the checks it lists are the suite\'s, each under the operation its id names', () => {
    const listed = explanation.checks!.flatMap((group) => group.checks.map((check) => check.id));
    expect([...listed].sort()).toEqual(checksFor(model).map((check) => check.id).sort());
    for (const group of explanation.checks!) {
      for (const check of group.checks) {
        if (group.operationId === undefined) expect(model.operations.some((op) => check.id === `auth.${op.operationId}` || check.id.startsWith(`${op.operationId}.`))).toBe(false);
        else expect(check.id === `auth.${group.operationId}` || check.id.startsWith(`${group.operationId}.`)).toBe(true);
      }
    }
  });

  test('every line says why and which decision', () => {
    const lines = [...explanation.resources.flatMap((resource) => [...resource.operations, resource.key, ...(resource.parent === undefined ? [] : [resource.parent]), ...resource.lists.flatMap((list) => [...list.applied, ...list.ignored, ...list.paging])]), ...explanation.answered, ...explanation.identity.schemes];
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(line.reason.length).toBeGreaterThan(10);
      expect(line.decision).toMatch(/^D\d+$/);
    }
  });

  test('each filter it lists as applied narrows the mock\'s list by the member it names, a resource\'s or an example\'s', async () => {
    const lists = [...explanation.resources.flatMap((resource) => resource.lists), ...explanation.answered.flatMap((op) => (op.list === undefined ? [] : [op.list]))];
    const applied = lists.flatMap((list) => list.applied.map((filter) => ({ list, filter })));
    expect(new Set(applied.map(({ list }) => list.operationId)).size).toBeGreaterThan(1);
    expect(applied.length).toBeGreaterThan(0);
    for (const { list, filter } of applied) {
      const op = model.operations.find((candidate) => candidate.operationId === list.operationId)!;
      const all = (await call('GET', `${op.path}?limit=30`)).json as Record<string, unknown>[];
      const values = all.flatMap((record) => valuesOf(record, filter)).sort();
      expect(values.length).toBeGreaterThan(1);
      const pivot = values[Math.floor(values.length / 2)]!;
      const kept = (await call('GET', `${op.path}?limit=30&${filter.parameter}=${encodeURIComponent(pivot)}`)).json as Record<string, unknown>[];
      const fits = (record: Record<string, unknown>): boolean => valuesOf(record, filter).some((value) => (filter.match === 'range' ? (filter.bound === 'lower' ? value >= pivot : value <= pivot) : value === pivot));
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.every(fits)).toBe(true);
      expect(kept.length).toBe(all.filter(fits).length);
      expect(kept.length).toBeLessThan(all.length + (filter.match === 'range' ? 1 : 0));
    }
  });

  test('each operation it lists as answered from an example answers that example (the members it echoes aside)', async () => {
    const fromExamples = explanation.answered.filter((op) => op.from === 'example');
    expect(fromExamples.length).toBeGreaterThan(0);
    for (const answered of fromExamples) {
      const op = model.operations.find((candidate) => candidate.operationId === answered.operationId)!;
      expect(op.pathParams).toEqual([]);
      const response = op.responses.find((candidate) => candidate.status === String(answered.status))!;
      const content = response.contents.find((candidate) => candidate.examples.some((example) => candidate.validate?.(example.value) !== false))!;
      const example = content.examples.find((candidate) => content.validate?.(candidate.value) !== false)!.value;
      const got = await call(op.method, op.path, op.body === undefined ? undefined : validSample(op.body.schema));
      expect(got.status).toBe(answered.status);
      // A served list's example is paged by the mock (D114): the first page holds the default page size's records.
      const size = answered.list === undefined ? undefined : servedListOf(op)?.list.limit?.default;
      const expected = Array.isArray(example) && size !== undefined ? example.slice(0, size) : example;
      expect(without(got.json, answered.echoes)).toEqual(without(expected, answered.echoes));
    }
  });
});

/** The values a record holds in a filter's member (an array member's items), as text for comparing. */
function valuesOf(record: Record<string, unknown>, filter: ExplainedFilter): string[] {
  const held = record[filter.property!];
  return (Array.isArray(held) ? held : [held]).filter((value) => value !== undefined && value !== null).map(String);
}

/** A JSON value with the top-level members `names` left out (those an answer echoes of its request, D280). */
function without(value: unknown, names: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => !names.includes(name)));
}
