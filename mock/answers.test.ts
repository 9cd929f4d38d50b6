import { join } from 'node:path';
import { sample } from 'openapi-sampler';
import { beforeAll, describe, expect, test } from 'vitest';
import { canonicalJson } from '../model/json.js';
import { PACKAGE_ROOT, SPEC_PATH } from '../model/loader.js';
import type { OperationModel } from '../model/model.js';
import { validAnswer, validatorOf } from '../model/samples.js';
import { answerProblem } from '../test/answer-check.js';
import { answerNotes, checkAnswersSoon, negotiate } from './answers.js';
import { createMock, startMock, type Mock, type MockRequest, type MockResponse } from './index.js';

/** Answers valid by construction (spec/DECISIONS.md › D55–D58), on a small spec written for them (mock/fixtures/answers.yaml). */
const SPEC = join(PACKAGE_ROOT, 'mock', 'fixtures', 'answers.yaml');
const KEY = 'answers-key';
const AUTH = { authorization: `Bearer ${KEY}` };

let mock: Mock;
beforeAll(async () => void (mock = await createMock({ spec: SPEC, apiKeys: [KEY] })));

const get = (url: string, headers: MockRequest['headers'] = {}): MockResponse => mock.handle({ method: 'GET', url: `/api${url}`, headers: { ...AUTH, ...headers } });
const json = (response: MockResponse): unknown => JSON.parse(response.body);
const op = (id: string): OperationModel => mock.model.operations.find((o) => o.operationId === id)!;

describe('samples and examples the schema accepts, and only those', () => {
  test('a oneOf of objects told apart by const: the sample is one whole branch', () => {
    const response = get('/shapes');
    expect(response.status).toBe(200);
    expect(answerProblem(op('getShape'), response)).toBeUndefined();
    expect(json(response)).toMatchObject({ kind: 'circle' });
  });

  test('an example the schema rejects is skipped; patterns, formats and writeOnly are kept (openapi-sampler alone breaks the pattern)', () => {
    const content = op('getToken').responses[0]!.contents[0]!;
    const sampled = sample(content.schema as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true });
    expect(content.validate!(sampled)).toBe(false);
    expect(content.validate!(content.examples[0]?.value ?? content.schema!['example'])).toBe(false);
    const response = get('/tokens');
    const body = json(response) as Record<string, unknown>;
    expect(body['token']).toMatch(/^tk_[a-f0-9]{8}$/);
    expect(Date.parse(String(body['issued']))).not.toBeNaN();
    expect(body).not.toHaveProperty('secret');
    expect(answerProblem(op('getToken'), response)).toBeUndefined();
  });

  test('validAnswer tries examples first, then samples, and says when nothing fits', () => {
    expect(validAnswer({ type: 'integer', minimum: 5 }, undefined, ['x', 7]).value).toBe(7);
    expect(validAnswer({ type: 'string', pattern: '^\\bab+\\b$' }).valid).toBe(true);
    expect(validAnswer({ type: 'string', format: 'email', maxLength: 30 }).value).toBe('user@example.com');
    expect(validAnswer({ allOf: [{ type: 'integer', multipleOf: 4 }, { minimum: 9, maximum: 15 }] }).value).toBe(12);
    expect(validAnswer({ type: 'string', enum: [1, 2] }).valid).toBe(false);
    // Overlapping branches: the first branch's fuller value matches both, so oneOf needs another candidate.
    const overlapping = { oneOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'string' } } }] };
    expect(validatorOf(overlapping)!(sample(overlapping as never, { quiet: true }))).toBe(false);
    expect(validAnswer(overlapping).valid).toBe(true);
  });

  test('the start-up check names a named example its schema breaks, and an answer no value fits', async () => {
    const notes: string[] = [];
    checkAnswersSoon(mock.model, (note) => notes.push(note));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(notes.some((note) => note.includes('getShape (GET /shapes) 202') && note.includes('broken'))).toBe(true);
    const unsatisfiable = { ...op('getStatus'), operationId: 'never', responses: [{ ...op('getStatus').responses[0]!, status: '200', contents: [{ mediaType: 'application/json', schema: { type: 'string', enum: [1] }, validate: validatorOf({ type: 'string', enum: [1] }), examples: [] }] }] };
    expect(answerNotes(unsatisfiable)).toEqual(['never (GET /status) 200 application/json: no example or sample satisfies its schema; the mock answers its best candidate']);
  });

  test('an operation documenting no 2xx answers its 3xx, else its default as 200, with the headers they declare', () => {
    const redirect = get('/authorize');
    expect([redirect.status, redirect.body]).toEqual([302, '']);
    expect(redirect.headers['location']).toMatch(/^https?:\/\/example\.com/);
    const status = get('/status');
    expect([status.status, json(status), status.headers['x-rate-limit']]).toEqual([200, { state: 'up' }, '10']);
    expect(answerProblem(op('getStatus'), { ...status, headers: { 'content-type': 'application/json' } })).toContain('X-Rate-Limit is missing');
    expect(answerProblem(op('getStatus'), status)).toBeUndefined();
  });
});

describe('Prefer: example=NAME and code=', () => {
  test('code=2xx answers that status with its first valid example; example=NAME picks a named one', () => {
    expect([get('/shapes', { prefer: 'code=202' }).status, json(get('/shapes', { prefer: 'code=202' }))]).toEqual([202, { kind: 'circle', radius: 2 }]);
    expect(get('/shapes', { prefer: 'example=circle, code=202' }).status).toBe(202);
    const text = get('/motd', { prefer: 'example=hello', accept: 'text/plain' });
    expect([text.status, text.headers['content-type'], text.body]).toEqual([200, 'text/plain', 'Hello']);
  });

  test('an unknown name, or one whose example breaks its schema, is a 400 in the documented error shape naming the valid ones', () => {
    for (const prefer of ['example=nope, code=202', 'example=broken, code=202']) {
      const refused = get('/shapes', { prefer });
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toBe('application/problem+json');
      expect(json(refused)).toMatchObject({ status: 400, title: 'Bad Request' });
      expect((json(refused) as { detail: string }).detail).toContain('circle');
    }
  });

  test('on an operation of a resource, the named example is answered and nothing is stored', () => {
    const before = mock.store.size;
    const created = mock.handle({ method: 'POST', url: '/api/animals', headers: { ...AUTH, 'content-type': 'application/json', prefer: 'example=bun' }, body: Buffer.from('{"name":"X"}') });
    expect([created.status, json(created)]).toEqual([201, { id: 9, name: 'Bun', kind: 'rabbit' }]);
    expect(mock.store.size).toBe(before);
  });
});

describe('binary and text answers, negotiated by Accept', () => {
  test('image/png is a PNG; Accept picks another documented type; none fitting is a 406 in the error shape', () => {
    const png = get('/photo');
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.bytes!.subarray(1, 4).toString('latin1')).toBe('PNG');
    const octets = get('/photo', { accept: 'application/octet-stream' });
    expect([octets.headers['content-type'], octets.bytes!.length > 0]).toEqual(['application/octet-stream', true]);
    // getPhoto documents no error: the 406 takes the API's documented error (problem+json here).
    const refused = get('/photo', { accept: 'application/json' });
    expect([refused.status, refused.headers['content-type'], json(refused)]).toMatchObject([406, 'application/problem+json', { status: 406, title: 'Not Acceptable' }]);
  });

  test('JSON, text and XML of one answer; q-values weigh; no Accept or */* prefers JSON', () => {
    expect(get('/motd').headers['content-type']).toBe('application/json');
    expect(get('/motd', { accept: '*/*' }).headers['content-type']).toBe('application/json');
    expect(get('/motd', { accept: 'text/plain' }).body).toBe('Hello');
    expect(get('/motd', { accept: 'application/json;q=0.5, application/xml' }).body).toContain('<message><text>Hello</text></message>');
    expect(negotiate([{ mediaType: 'text/plain' }, { mediaType: 'application/json' }], 'text/*;q=0.9, */*;q=0.1')?.mediaType).toBe('text/plain');
    expect(negotiate([{ mediaType: 'text/plain' }], 'image/*')).toBeUndefined();
  });

  test('a range documented as the media type (*/* as Springdoc writes it) is answered as JSON with a concrete Content-Type', () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const answer = get('/generated', accept === undefined ? {} : { accept });
      expect([answer.status, answer.headers['content-type'], json(answer)]).toEqual([200, 'application/json', { id: 1 }]);
    }
    const forced = get('/generated', { prefer: 'code=400' });
    expect([forced.status, forced.headers['content-type']]).toEqual([400, 'application/json']);
    expect(answerProblem(op('getGenerated'), forced)).toBeUndefined();
  });

  test('a record of a resource is written in XML when Accept asks for the documented XML', () => {
    const xml = get('/animals/7', { accept: 'application/xml' });
    expect([xml.status, xml.headers['content-type']]).toEqual([200, 'application/xml']);
    expect(xml.body).toContain('<animal><id>7</id><name>Tom</name><kind>cat</kind></animal>');
  });

  test('an operation no resource holds takes the bytes or text it declares; text is checked against its schema', () => {
    const send = (method: string, url: string, type: string, body: Buffer): MockResponse => mock.handle({ method, url: `/api${url}`, headers: { ...AUTH, 'content-type': type }, body });
    expect(send('POST', '/uploads', 'application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff])).status).toBe(200);
    expect(send('POST', '/uploads', 'application/json', Buffer.from('{}')).status).toBe(415);
    expect(send('PUT', '/motd', 'text/plain', Buffer.from('Good morning')).status).toBe(204);
    expect(json(send('PUT', '/motd', 'text/plain', Buffer.from('A message far longer than twenty characters')))).toMatchObject({ status: 400, detail: expect.stringContaining('20 characters') as unknown });
  });

  test('over a socket, the bytes arrive whole with their length', async () => {
    const started = await startMock({ spec: SPEC, apiKeys: [KEY], port: 0 });
    try {
      const response = await fetch(`${started.baseUrl}/photo`, { headers: AUTH });
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([response.status, response.headers.get('content-type'), bytes.length, bytes.subarray(0, 8).toString('hex')]).toEqual([200, 'image/png', 66, '89504e470d0a1a0a']);
    } finally {
      await started.close();
    }
  });
});

describe('errors the mock makes itself, in the documented shape and media type', () => {
  test('401 where the operation documents only 404: its problem+json; an unknown path and method too', () => {
    const refused = mock.handle({ method: 'GET', url: '/api/animals', headers: {} });
    expect([refused.status, refused.headers['content-type']]).toEqual([401, 'application/problem+json']);
    expect(json(refused)).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect(answerProblem(op('listAnimals'), refused)).toBeUndefined();
    const missing = get('/animals/12345');
    expect([missing.status, missing.headers['content-type']]).toEqual([404, 'application/problem+json']);
    expect(get('/nowhere').headers['content-type']).toBe('application/problem+json');
    expect(mock.handle({ method: 'DELETE', url: '/api/shapes', headers: AUTH }).headers['content-type']).toBe('application/problem+json');
  });

  test('a body too large for the adapter is a 413 in the documented shape too', async () => {
    const started = await startMock({ spec: SPEC, apiKeys: [KEY], port: 0, maxBodyBytes: 64 });
    try {
      const response = await fetch(`${started.baseUrl}/animals`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(200) }) });
      expect([response.status, response.headers.get('content-type'), await response.json()]).toMatchObject([413, 'application/problem+json', { status: 413, title: 'Payload Too Large' }]);
    } finally {
      await started.close();
    }
  });
});

describe('starting records', () => {
  test('a spec other than the shipped one starts with the valid records its examples show, first of each id, never the demo pets', () => {
    const listed = json(get('/animals')) as { id: number; name: string }[];
    expect(listed.map((a) => [a.id, a.name]).sort()).toEqual([[7, 'Tom'], [8, 'Rex'], [9, 'Bun']]);
    expect(mock.notes).toContain("starting with the records the spec's examples show: 3 animals");
  });

  test('the shipped spec keeps its demo pets; a spec with no example record starts empty', async () => {
    const shipped = await createMock({ spec: SPEC_PATH });
    expect(shipped.store.size).toBeGreaterThan(0);
    const bare = await createMock({ spec: join(PACKAGE_ROOT, 'spec', 'corpus', 'required-field.yaml') });
    expect([...bare.stores.sharedData.values()].every((store) => store.size === 0)).toBe(true);
    expect(bare.notes).toContain('starting empty: no example of the spec is a whole record of a resource');
  });
});

describe('the property catches a broken answer', () => {
  test('a body its schema rejects, an undocumented media type, and missing bytes are each reported', () => {
    const good = get('/shapes');
    expect(answerProblem(op('getShape'), good)).toBeUndefined();
    expect(answerProblem(op('getShape'), { ...good, body: canonicalJson({ kind: 'circle', side: 3 }) })).toContain('must');
    expect(answerProblem(op('getShape'), { ...good, headers: { 'content-type': 'text/plain' } })).toContain('documented: application/json');
    const png = get('/photo');
    expect(answerProblem(op('getPhoto'), { ...png, bytes: Buffer.alloc(0) })).toContain('no bytes');
    const problem = get('/animals/12345');
    expect(answerProblem(op('getAnimal'), { ...problem, body: '{"code":"RECORD_NOT_FOUND","message":"x","status":404}' })).toContain('must have the property');
  });
});
