import { describe, expect, test } from 'vitest';
import { loadModel } from './loader.js';

// The model of the seed's spec: one resource `pets` with the three operations of the seed (Endpoints §1-3).
const model = await loadModel();

describe('loadModel on spec/openapi.yaml', () => {
  test('serves at /v1, the local server entry (Versioning)', () => {
    expect(model.basePath).toBe('/v1');
  });

  test('finds one resource, pets: list, create, read; id an int64 assigned by the server', () => {
    expect(model.resources).toHaveLength(1);
    const pets = model.resources[0]!;
    expect(pets).toMatchObject({ name: 'pets', collectionPath: '/pets', itemPath: '/pets/{petId}', idProperty: 'id', idType: 'integer', idParameter: 'petId' });
    expect(Object.keys(pets.operations).sort()).toEqual(['create', 'list', 'read']);
    expect(pets.limit).toEqual({ parameter: 'limit', minimum: 1, maximum: 100, default: 20 });
    expect(pets.filters.map((f) => [f.parameter.name, f.property, f.values])).toEqual([['status', 'status', ['available', 'pending', 'sold']]]);
    expect(pets.listShape).toEqual({ kind: 'array' });
    expect(model.notes).toEqual([]);
  });

  test('operations: bearer security, success statuses, Error bodies with status equal to the HTTP status (Errors)', () => {
    const byId = Object.fromEntries(model.operations.map((op) => [op.operationId, op]));
    expect(byId['createPet']!.successStatus).toBe(201);
    expect(byId['listPets']!.security).toEqual([{ kind: 'bearer', name: 'bearerAuth' }]);
    expect(byId['getPet']!.errors.body({ code: 'PET_NOT_FOUND', message: 'none', status: 404 })).toEqual({ value: { code: 'PET_NOT_FOUND', message: 'none', status: 404 }, mediaType: 'application/json' });
  });

  test('int64 format: in range passes, 2^63 refused by the exact view', async () => {
    const { parseExact } = await import('./json.js');
    const body = model.operations.find((op) => op.operationId === 'createPet')!.body!;
    const view = (text: string) => (parseExact(text) as { ok: true; document: { view: unknown } }).document.view;
    expect(body.validate(view('{"name":"a","categoryId":9223372036854775807}'))).toBe(true);
    expect(body.validate(view('{"name":"a","categoryId":-9223372036854775808}'))).toBe(true);
    expect(body.validate(view('{"name":"a","categoryId":9223372036854775808}'))).toBe(false);
    expect(body.validate.errors()).toContain('int64');
    expect(body.validate(view('{"name":"a","categoryId":-9223372036854775809}'))).toBe(false);
    expect(body.validate(view('{"name":"a","categoryId":1,"x":1e19}'))).toBe(true);
  });
});

describe('x-resource where the convention does not fit (test/wild/x-resource.yaml)', async () => {
  const { join } = await import('node:path');
  const { PACKAGE_ROOT } = await import('./loader.js');
  const shelter = await loadModel(join(PACKAGE_ROOT, 'test', 'wild', 'x-resource.yaml'));

  test('names the list, its page size and filter, the id, and leaves an operation out', () => {
    expect(shelter.basePath).toBe('/shelter');
    expect(shelter.resources).toHaveLength(1);
    const animals = shelter.resources[0]!;
    expect(animals).toMatchObject({ name: 'animals', collectionPath: '/animals', idProperty: 'code', idType: 'string', idParameter: 'tag' });
    expect(Object.fromEntries(Object.entries(animals.operations).map(([role, op]) => [role, op.operationId]))).toEqual({ create: 'admitAnimal', list: 'searchAnimals', read: 'getAnimal' });
    expect(animals.limit).toEqual({ parameter: 'count', minimum: 1, maximum: 30, default: 5 });
    expect(animals.filters.map((f) => [f.parameter.name, f.property, f.values])).toEqual([['kind', 'species', ['cat', 'dog', 'rabbit']]]);
    expect(shelter.operations.find((op) => op.operationId === 'archiveAnimal')!.resource).toBeUndefined();
    expect(shelter.operations.find((op) => op.operationId === 'searchAnimals')!.security).toEqual([{ kind: 'apiKey', name: 'key', in: 'header', parameter: 'X-Shelter-Key' }]);
  });
});
