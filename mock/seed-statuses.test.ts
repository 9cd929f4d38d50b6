import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { bearer, call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY } from './index.js';
import { answerableStatuses, startupNotes } from './statuses.js';

/** The shipped spec documents every status the mock answers for its operations (README › Error bodies). */
const model = await loadModel();

describe('statuses of the seed spec', () => {
  it('every status the mock may answer is documented explicitly, so start-up warns of nothing', () => {
    for (const op of model.operations) {
      const documented = op.responses.map((response) => Number(response.status));
      expect(documented, op.operationId).toEqual(expect.arrayContaining(answerableStatuses(op)));
    }
    expect(startupNotes(model)).toEqual([]);
    expect(answerableStatuses(model.operations.find((op) => op.operationId === 'createPet')!)).toEqual([400, 401, 409, 413, 415]);
  });

  it('a spec lacking them is named at start-up', async () => {
    const mock = await createMock({ model: { ...model, operations: model.operations.map((op) => (op.operationId === 'listPets' ? { ...op, errors: { ...op.errors, documents: (status: number) => status !== 400 } } : op)) } });
    expect(mock.notes).toContain('listPets (GET /pets) does not document 400, which the mock may answer');
  });

  it('unknown body properties are judged by the schema alone: an out-of-int64 unknown number is a 201, not stored', async () => {
    const mock = await createMock({ model, pets: [] });
    const created = call(mock.handle, { method: 'POST', url: '/v1/pets', headers: bearer(DEFAULT_API_KEY, { 'content-type': 'application/json' }), body: '{"name":"a","categoryId":1,"x":1e19}' });
    expect(created.status).toBe(201);
    expect(created.body).toBe('{"id":1,"name":"a","categoryId":1}');
    const known = call(mock.handle, { method: 'POST', url: '/v1/pets', headers: bearer(DEFAULT_API_KEY, { 'content-type': 'application/json' }), body: '{"name":"a","categoryId":1e19}' });
    expect(known.status, 'int64 still holds where the schema declares it').toBe(400);
  });
});
