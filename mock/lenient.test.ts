import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { generate } from '../model/samples.js';
import { fixtureMock } from '../test/in-process.js';

/**
 * Descriptions read as their authors meant them (spec/DECISIONS.md D130-D139), served from
 * mock/fixtures/lenient.openapi.yaml: a 3.1 file with 3.0 keywords and FastAPI's nullable unions.
 */
const { send, post, get } = await fixtureMock('lenient.openapi.yaml');

describe('3.0 keywords in a 3.1 file (D130)', () => {
  it('nullable beside allOf and a boolean exclusive bound are applied', () => {
    expect(post('/tasks', { title: 'a', note: null, rank: null }).status).toBe(201);
    expect(post('/tasks', { title: 'a', note: 'far too long a note' }).status).toBe(400);
    expect(post('/tasks', { title: 'a', rank: 0 }).status).toBe(400);
    expect(post('/tasks', { title: 'a', rank: 1 }).status).toBe(201);
  });

  it('a named example written without `value` is served as that value', () => {
    expect(get('/status')).toMatchObject({ status: 200, json: { state: 'up-and-running' } });
  });

  it('nullable beside a $ref applies with the target, and the start-up notes count it', async () => {
    expect(post('/tasks', { title: 'a', owner: null }).status).toBe(201);
    expect(post('/tasks', { title: 'a', owner: { name: 'Ada' } }).status).toBe(201);
    expect(post('/tasks', { title: 'a', owner: {} }).status).toBe(400);
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml'));
    expect(model.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^1 place: `\$ref` beside other keywords/)]));
  });
});

describe('nullable unions read as their other branch where a type is needed (D131)', () => {
  it('a FastAPI boolean query parameter is coerced and filters the list', () => {
    post('/tasks', { title: 'open', done: false });
    post('/tasks', { title: 'closed', done: true });
    const done = get('/tasks?done=true');
    expect(done.status, done.body).toBe(200);
    expect((done.json as { title: string }[]).map((task) => task.title)).toEqual(['closed']);
    expect((get('/tasks?done=false').json as { title: string }[]).map((task) => task.title)).toEqual(['open']);
    expect(get('/tasks?done=maybe').status).toBe(400);
  });

  it('a nullable integer query parameter is coerced and bounded', () => {
    for (let i = 0; i < 3; i++) post('/tasks', { title: `t${i}` });
    expect((get('/tasks?limit=2').json as unknown[]).length).toBe(2);
    expect(get('/tasks?limit=0').status).toBe(400);
    expect(get('/tasks?limit=x').status).toBe(400);
    expect(send({ url: '/api/tasks/999' }).status).toBe(404);
  });
});

describe('examples that break their own schema (D132)', () => {
  it('are left out of the model, counted in one note and listed in the details', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml'));
    const create = model.operations.find((op) => op.operationId === 'createTask')!;
    const properties = create.body!.schema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['title']!['examples']).toEqual(['Water the plants']);
    expect(properties['code']!['examples']).toBeUndefined();
    expect(model.operations.find((op) => op.operationId === 'listTasks')!.queryParams.find((p) => p.name === 'limit')!.example).toBeUndefined();
    expect(model.notes.filter((note) => note.includes('D132'))).toEqual(['3 examples their own schema refuses left out: never served as data nor sent by the suite (D132); --log-level debug lists them']);
    expect(model.details?.filter((line) => line.includes('4f4e4e1'))).toHaveLength(1);
  });

  it('is never drawn as a member of a sample the mock serves', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml'));
    const task = model.operations.find((op) => op.operationId === 'getTask')!.responses[0]!.schema!;
    const sample = generate(task) as Record<string, unknown>;
    expect(sample['title']).toBe('Water the plants');
    expect(typeof sample['code']).toBe('string');
    expect(sample['code']).not.toContain('4f4e4e1');
  });
});

describe('path keys with a fragment (D133)', () => {
  it('a key with a fragment is served at its route', () => {
    expect(get('/notes/n1')).toMatchObject({ status: 200, json: { body: expect.any(String) } });
  });

  it('operations sharing a route once fragments are dropped are told apart by what the request asks', () => {
    const plain = post('/chat', { prompt: 'hi' });
    expect(plain.status, plain.body).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.json).toMatchObject({ id: expect.any(String), text: expect.any(String) });
    const streamed = post('/chat', { prompt: 'hi', stream: true });
    expect(streamed.status, streamed.body).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(streamed.chunks?.length).toBeGreaterThanOrEqual(3);
    for (const chunk of streamed.chunks ?? []) expect(JSON.parse(chunk.replace(/^data: /, '').trim())).toMatchObject({ delta: expect.any(String) });
    const accepted = send({ method: 'POST', url: '/api/chat', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ prompt: 'hi', stream: true }) });
    expect(accepted.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(post('/chat', { stream: true }).status).toBe(400);
  });

  it('the model holds one operation per route and says which variant it joined', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml'));
    expect(model.operations.filter((op) => op.path === '/chat').map((op) => op.operationId)).toEqual(['createChat']);
    expect(model.operations.find((op) => op.operationId === 'createChat')!.streamMember).toBe('stream');
    expect(model.notes.some((note) => note.includes('POST /chat#stream (createChatStream) is served at POST /chat beside createChat'))).toBe(true);
  });
});

describe('a schema that cannot be compiled costs only what needs it (D134)', () => {
  it('its answer is served (never a 500 the operation does not document), and other operations are untouched', () => {
    const labels = get('/labels');
    expect(labels.status, labels.body).toBe(200);
    expect(Array.isArray(labels.json)).toBe(true);
    expect(post('/tasks', { title: 'still checked', rank: 0 }).status).toBe(400);
  });
});
