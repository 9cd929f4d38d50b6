import { describe, expect, it } from 'vitest';
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
