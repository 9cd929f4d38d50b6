import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { isReturned, shows } from '../judge/record-rules.js';
import { refusedCredentialStatuses } from './checks/auth.js';
import { refusalStatuses } from './checks/create.js';

// Choices a correct server of a wild spec may make where the spec leaves the gap open (D120-D123); each was a
// false alarm on a second independent server (test/independent/*/…-rival-server.ts).
const nursery = (): Promise<ApiModel> => loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'nursery-3.0.yaml'));
const seed = (): Promise<ApiModel> => loadModel();
const op = (model: ApiModel, id: string): OperationModel => model.operations.find((one) => one.operationId === id)!;

describe('statuses a refused body may get (D120)', () => {
  test('both 400 and 422 documented: either', async () => {
    expect(refusalStatuses(op(await nursery(), 'addPlant'))).toEqual([400, 422]);
  });
  test('only `default` documents errors: either', async () => {
    expect(refusalStatuses(op(await nursery(), 'createGardener'))).toEqual([400, 422]);
  });
  test('400 documented and no 422: 400 only', async () => {
    expect(refusalStatuses(op(await nursery(), 'updateGardener'))).toEqual([400]);
    expect(refusalStatuses(op(await seed(), 'createPet'))).toEqual([400]);
  });
});

describe('statuses that refuse bad credentials (D121)', () => {
  const wrong = { kind: 'a wrong key', headers: { authorization: 'Bearer nope' } };
  const none = { kind: 'no credentials', headers: { authorization: null } };
  test('credentials sent where the spec pins no 401: 401 or 403', async () => {
    expect(refusedCredentialStatuses(op(await nursery(), 'addPlant'), wrong, false)).toEqual([401, 403]);
  });
  test('no credentials, --strict, or a documented 401: 401 only', async () => {
    expect(refusedCredentialStatuses(op(await nursery(), 'addPlant'), none, false)).toEqual([401]);
    expect(refusedCredentialStatuses(op(await nursery(), 'addPlant'), wrong, true)).toEqual([401]);
    expect(refusedCredentialStatuses(op(await seed(), 'createPet'), wrong, false)).toEqual([401]);
  });
});

test('a password is not expected back, other members are (D122)', async () => {
  const gardener = (await nursery()).resources.find((resource) => Object.hasOwn(resource.properties, 'password'))!;
  expect(isReturned(gardener, 'password')).toBe(false);
  expect(isReturned(gardener, 'firstName')).toBe(true);
});

test('a card number answered masked shows the number sent; other changes do not (D122)', () => {
  expect(shows('************4242', '4242424242424242')).toBe(true);
  expect(shows('XXXXXXXXXXXX4242', '4242424242424242')).toBe(true);
  expect(shows('4242424242424241', '4242424242424242')).toBe(false);
  expect(shows('*****42424242424', '4242424242424242')).toBe(false);
  expect(shows('****', '4242424242424242')).toBe(false);
});

test('a number masked by characters keeps four characters, counted as code points or as UTF-16 units (D183)', () => {
  expect(shows('X\u0000\u0000\u0000𐀀', '\u0000\u0000\u0000\u0000𐀀')).toBe(true);
  expect(shows('XX\u0000\u0000𐀀', '\u0000\u0000\u0000\u0000𐀀')).toBe(true);
  expect(shows('*\udc00𐀀\u0000', '𐀀𐀀\u0000')).toBe(true);
  expect(shows('X\u0000\u0000\u0000\u0000', '\u0000\u0000\u0000\u0000𐀀')).toBe(false);
});
