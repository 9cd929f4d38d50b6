import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from './loader.js';
import { PARENT_LINK, type ResourceModel } from './model.js';

/**
 * The model of writes in the shapes public APIs use (spec/DECISIONS.md D50-D54), on mock/fixtures/writes.openapi.yaml:
 * who chooses an id, where a replace finds it, creates without an answer body, forms, sub-resources.
 */
const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'writes.openapi.yaml'));
const resource = (name: string): ResourceModel => {
  const found = model.resources.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no resource ${name}: ${model.resources.map((r) => r.name).join(', ')}`);
  return found;
};
const roles = (r: ResourceModel): Record<string, string> => Object.fromEntries(Object.entries(r.operations).map(([role, op]) => [role, `${op.method} ${op.path} ${op.idIn ?? '-'}`]));

describe('writes in the model', () => {
  test('classic Petstore: PUT and PATCH on the collection path take the id in the body; a writable id is the client\'s or the server\'s', () => {
    const pet = resource('pet');
    expect(roles(pet)).toEqual({ create: 'POST /pet -', replace: 'PUT /pet body', update: 'PATCH /pet body', read: 'GET /pet/{petId} path', delete: 'DELETE /pet/{petId} path' });
    expect([pet.idProperty, pet.idSource, pet.createAnswer, pet.idParameter]).toEqual(['id', 'either', 'record', 'petId']);
  });

  test('natural keys: a required key of the create body is the client\'s (`username`, `code`)', () => {
    const user = resource('user');
    expect([user.idProperty, user.idType, user.idSource, user.createAnswer]).toEqual(['username', 'string', 'client', 'none']);
    expect(roles(user)).toMatchObject({ create: 'POST /user -', replace: 'PUT /user/{username} path' });
    const country = resource('countries');
    expect([country.idProperty, country.idSource, country.createAnswer]).toEqual(['code', 'client', 'none']);
    expect(country.operations.create?.body?.mediaTypes).toEqual(['multipart/form-data']);
  });

  test('a readOnly id is the server\'s', () => {
    expect(resource('owners').idSource).toBe('server');
    expect(resource('bookings').idSource).toBe('server');
  });

  test('sub-resources: created and listed under their parent, linked by a property named like the parameter or by the mock\'s own member', () => {
    const animals = resource('animals');
    expect(roles(animals)).toEqual({ list: 'GET /owners/{ownerId}/animals -', create: 'POST /owners/{ownerId}/animals -', read: 'GET /owners/{ownerId}/animals/{animalId} path', delete: 'DELETE /owners/{ownerId}/animals/{animalId} path' });
    expect(animals.parent).toEqual({ resource: 'owners', parameter: 'ownerId', property: PARENT_LINK, inSchema: false, singleton: false });
    expect(animals.idParameter).toBe('animalId');
    const payment = resource('payment');
    expect(payment.parent).toEqual({ resource: 'bookings', parameter: 'bookingId', property: 'bookingId', inSchema: true, singleton: false });
    expect(roles(payment)).toEqual({ create: 'POST /bookings/{bookingId}/payment -' });
  });

  test('an id named after the resource and the parameter (`client_id` of `/clients/{id}`), its source named by x-resource; a form-only POST alone on its path is an action', () => {
    const clients = resource('clients');
    expect([clients.idProperty, clients.idSource]).toEqual(['client_id', 'client']);
    expect(model.resources.some((r) => r.name === 'login')).toBe(false);
    expect(model.operations.find((op) => op.operationId === 'login')?.resource).toBeUndefined();
  });

  test('a singleton sub-resource: its GET answers one record, so its methods act on the parent\'s one record', () => {
    const profile = resource('profile');
    expect(profile.parent).toMatchObject({ resource: 'owners', parameter: 'ownerId', singleton: true });
    expect(roles(profile)).toEqual({ read: 'GET /owners/{ownerId}/profile parent', replace: 'PUT /owners/{ownerId}/profile parent', update: 'PATCH /owners/{ownerId}/profile parent', delete: 'DELETE /owners/{ownerId}/profile parent' });
  });
});
