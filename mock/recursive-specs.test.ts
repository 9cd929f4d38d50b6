import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { answerNotes } from './answers.js';
import { createMock } from './index.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { compile, createAjv } from '../model/schema.js';

/**
 * The mock never crashes on a spec (spec/DECISIONS.md › D80-D83), whatever its schemas: specs drawn at random
 * from composite and recursive schemas (`$ref` cycles through `oneOf`/`anyOf`/`allOf`, discriminators, arrays
 * and maps of themselves), used as request bodies, answers and list items, some answers also documented as
 * `text/event-stream`. For each: the mock starts in process, its background answer check ends without throwing,
 * and every operation answers either a documented status or, for a status the spec does not document, a JSON
 * body in the operation's documented error shape; the mock still answers afterwards.
 */

const KEY = 'petstore-dev-key';
const dir = mkdtempSync(join(tmpdir(), 'recursive-specs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, unknown>;

/** One schema of `count` named ones: leaves and `$ref`s to any of them (itself included), nested up to `depth`. */
function schemaArb(count: number, depth: number): fc.Arbitrary<Json> {
  const ref = fc.nat(count - 1).map((i) => ({ $ref: `#/components/schemas/S${i}` }));
  const leaf = fc.oneof(fc.constant({ type: 'string' }), fc.constant({ type: 'integer', minimum: 1 }), fc.constant({ type: 'boolean' }), fc.constant({ enum: ['a', 'b'] }), ref, ref);
  if (depth === 0) return leaf;
  const sub = schemaArb(count, depth - 1);
  const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'kind', 'next'), { minLength: 1, maxLength: 3 });
  const object = names.chain((keys) =>
    fc.tuple(fc.array(sub, { minLength: keys.length, maxLength: keys.length }), fc.subarray(keys)).map(([subs, required]) => ({ type: 'object', properties: Object.fromEntries(keys.map((k, i) => [k, subs[i]])), required })),
  );
  const discriminated = fc.uniqueArray(fc.nat(count - 1), { minLength: 1, maxLength: 3 }).map((targets) => ({
    oneOf: targets.map((i) => ({ allOf: [{ $ref: `#/components/schemas/S${i}` }, { type: 'object', required: ['kind'], properties: { kind: { const: `k${i}` } } }] })),
    discriminator: { propertyName: 'kind' },
  }));
  return fc.oneof(
    { weight: 2, arbitrary: leaf },
    { weight: 3, arbitrary: object },
    { weight: 1, arbitrary: sub.map((items) => ({ type: 'array', items })) },
    { weight: 1, arbitrary: sub.map((items) => ({ type: 'array', items, minItems: 1 })) },
    { weight: 1, arbitrary: sub.map((extra) => ({ type: 'object', additionalProperties: extra, minProperties: 1 })) },
    { weight: 2, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })) },
    { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })) },
    { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf })) },
    { weight: 1, arbitrary: discriminated },
    { weight: 1, arbitrary: sub.map((s) => ({ anyOf: [s, { type: 'null' }] })) },
  );
}

/**
 * A ring of `count` schemas in the shape of a large AI API's conversation items: each a `oneOf` of an object
 * whose `next` is the following schema (and whose `all` lists the first) and an array of the following one.
 * Resolved and cut where the ring closes, it is `count` unions deep and every union refers to the others.
 */
function ring(count: number): Json[] {
  const ref = (i: number): Json => ({ $ref: `#/components/schemas/S${i % count}` });
  return Array.from({ length: count }, (_, i) => ({
    oneOf: [
      { type: 'object', required: ['kind'], properties: { kind: { const: `k${i}` }, next: ref(i + 1), all: { type: 'array', items: ref(0) } } },
      { type: 'array', items: ref(i + 1) },
    ],
  }));
}

/**
 * A spec of 1-4 drawn schemas, or a ring of 12-16; per schema a create (body and answer), a list (an array of it,
 * also as a stream), a read and an action.
 */
const specArb = fc.record({
  schemas: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }).chain((count) => fc.array(schemaArb(count, 3), { minLength: count, maxLength: count })) }, { weight: 1, arbitrary: fc.integer({ min: 12, max: 16 }).map(ring) }),
  errors: fc.boolean(),
  openapi30: fc.boolean(),
});

/** The most one drawn spec may take to load, start, check and answer every operation (a bound, not a benchmark: it takes well under a second). */
const SPEC_MS = 10_000;

function documentOf(spec: { schemas: Json[]; errors: boolean; openapi30: boolean }): Json {
  const json = (schema: unknown): Json => ({ 'application/json': { schema } });
  const errors = spec.errors ? { default: { description: 'An error.', content: json({ $ref: '#/components/schemas/Error' }) } } : {};
  const paths: Json = {};
  spec.schemas.forEach((_, i) => {
    const ref = { $ref: `#/components/schemas/S${i}` };
    paths[`/things${i}`] = {
      post: { operationId: `create${i}`, requestBody: { required: true, content: json(ref) }, responses: { '201': { description: 'Made.', content: json(ref) }, ...errors } },
      get: { operationId: `list${i}`, responses: { '200': { description: 'All.', content: { ...json({ type: 'array', items: ref }), 'text/event-stream': { schema: ref } } }, ...errors } },
    };
    paths[`/things${i}/{id}`] = { get: { operationId: `read${i}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'One.', content: json(ref) }, ...errors } } };
    paths[`/act${i}`] = { post: { operationId: `act${i}`, requestBody: { content: json(ref) }, responses: { '200': { description: 'Done.', content: json({ type: 'object', properties: { result: ref, items: { type: 'array', items: ref } } }) }, ...errors } } };
  });
  const schemas: Json = Object.fromEntries(spec.schemas.map((schema, i) => [`S${i}`, schema]));
  schemas['Error'] = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
  return {
    openapi: spec.openapi30 ? '3.0.3' : '3.1.0',
    info: { title: 'Drawn', version: '1' },
    servers: [{ url: '/api' }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas },
  };
}

/** Whether the operation documents `status` itself (exactly, by range or by `default`). */
function documents(op: OperationModel, status: number): boolean {
  return op.responses.some((r) => r.status === String(status) || r.status === `${String(status)[0]}XX` || r.status === 'DEFAULT');
}

/** The requests sent to each operation: a sample of its body where it takes one, an empty object, a deep nesting. */
function requestsFor(api: ApiModel, op: OperationModel): { method: string; url: string; headers: Record<string, string>; body?: string }[] {
  const url = `${api.basePath}${op.path.replace('{id}', '1')}`;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  if (op.body === undefined) return [{ method: op.method, url, headers }, { method: op.method, url, headers: { ...headers, accept: 'text/event-stream' } }];
  let deep: unknown = 'leaf';
  for (let i = 0; i < 2_000; i++) deep = { next: deep, a: [deep === 'leaf' ? 1 : 2] };
  return [
    { method: op.method, url, headers, body: '{}' },
    { method: op.method, url, headers, body: JSON.stringify(deep) },
  ];
}

describe('the mock on drawn recursive specs', () => {
  it('starts, checks its answers in the background, answers every operation documented or in the error shape, in bounded time, and stays up', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const started = performance.now();
        const file = join(dir, `spec-${run++}.json`);
        writeFileSync(file, JSON.stringify(documentOf(spec)));
        const model = await loadModel(file);
        const mock = await createMock({ model, data: new Map() });
        // The background pass (mock/answers.ts checkAnswersSoon) runs answerNotes on each operation no resource holds.
        for (const op of model.operations) expect(() => answerNotes(op)).not.toThrow();
        const errorSchema = (documentOf(spec)['components'] as { schemas: Json }).schemas['Error'] as Json;
        const validError = compile(createAjv(), errorSchema);
        for (const op of model.operations) {
          for (const request of requestsFor(model, op)) {
            const answered = mock.handle({ ...request, body: request.body === undefined ? undefined : Buffer.from(request.body) });
            const isJson = /json/.test(answered.headers['content-type'] ?? '') && answered.body !== '';
            const response = { ...answered, json: isJson ? (JSON.parse(answered.body) as unknown) : undefined };
            const where = `${op.operationId} ${request.method} ${request.url} → ${response.status} ${response.body.slice(0, 300)}`;
            if (documents(op, response.status)) continue;
            expect(response.status, where).toBeGreaterThanOrEqual(400);
            // Undocumented: an error in the documented shape (the spec's Error where it documents one).
            if (spec.errors) expect(validError(response.json), where).toBe(true);
            else expect(response.json, where).toMatchObject({ code: expect.any(String), message: expect.any(String) });
          }
        }
        const after = mock.handle({ method: 'GET', url: `${model.basePath}/things0`, headers: { authorization: `Bearer ${KEY}` } });
        expect(after.status).toBeLessThan(500);
        expect(performance.now() - started, 'one spec, start to last answer (ms)').toBeLessThan(SPEC_MS);
      }),
      { numRuns: 60, seed: 20261126, endOnFailure: true },
    );
  }, 120_000);
});
