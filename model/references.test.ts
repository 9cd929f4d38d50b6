import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from './loader.js';
import { referencesOf, shownIds } from './references.js';

describe('references to other collections (D95)', () => {
  test('a reservation names a crossing of GET /crossings; its id member, items path and the ids the spec shows', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'ferry-travel-3.1.yaml'));
    const create = model.operations.find((op) => op.operationId === 'create-reservation')!;
    const [reference, ...rest] = referencesOf(create, model.operations);
    expect(rest).toEqual([]);
    expect(reference).toMatchObject({ member: 'crossing_id', idMember: 'id', itemsPath: ['data'] });
    expect(reference!.list.path).toBe('/crossings');
    expect(reference!.examples[0]).toBe('9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04');
    expect(shownIds(reference!)).toEqual(['9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04', '4e7d2b19-6a3c-4f58-b1d2-8c9e0f1a2b05']);
    // A payment names no other collection; the crossings list's own parameters are no body members.
    const pay = model.operations.find((op) => op.operationId === 'create-reservation-payment')!;
    expect(referencesOf(pay, model.operations)).toEqual([]);
  });

  test('an order names a plant of POST /plant, a collection without a list of its own, read through its views (D171)', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'nursery-3.0.yaml'));
    const order = model.operations.find((op) => op.operationId === 'placeShopOrder')!;
    const [reference, ...rest] = referencesOf(order, model.operations);
    expect(rest).toEqual([]);
    expect(reference).toMatchObject({ member: 'plantId', idMember: 'id', itemsPath: [] });
    expect(reference!.list.resource?.name).toBe('plant');
    expect(reference!.list.resource?.operations.create?.path).toBe('/plant');
    // The plant's own writes name no other collection: its id is no reference.
    const add = model.operations.find((op) => op.operationId === 'addPlant')!;
    expect(referencesOf(add, model.operations)).toEqual([]);
  });

  test('an id a list example shows that its own schema refuses is never among the ids to send (D132)', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml'));
    const create = model.operations.find((op) => op.operationId === 'createAssignment')!;
    const [reference] = referencesOf(create, model.operations);
    expect(reference).toMatchObject({ member: 'project_id', idMember: 'id' });
    expect(reference!.examples).toEqual(['9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04']);
  });

  test('the seed spec has none: a pet names no other collection', async () => {
    const model = await loadModel();
    for (const op of model.operations) expect(referencesOf(op, model.operations)).toEqual([]);
  });

  test('a member of another type than the listed ids names no record of that list (D166)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'references-'));
    try {
      const file = join(dir, 'openapi.json');
      const list = (schema: unknown): unknown => ({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: schema } } } } } });
      const key = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } };
      const body = { type: 'object', properties: { key_id: { type: 'string' }, petId: { type: 'integer' } } };
      const pet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
      writeFileSync(file, JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'kinds', version: '1' },
        paths: {
          '/keys': { get: { operationId: 'listKeys', ...(list(key) as object) } },
          '/pets': { get: { operationId: 'listPets', ...(list(pet) as object) } },
          '/secrets': { post: { operationId: 'putSecret', requestBody: { content: { 'application/json': { schema: body } } }, responses: { '201': { description: 'made' } } } },
        },
      }));
      const model = await loadModel(file);
      const put = model.operations.find((op) => op.operationId === 'putSecret')!;
      expect(referencesOf(put, model.operations).map((reference) => reference.member)).toEqual(['petId']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
