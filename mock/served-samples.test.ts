import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/in-process.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { createMock, type Mock } from './index.js';

/**
 * A catalogue no request can add to starts with the record its read's example id names (spec/DECISIONS.md › D154),
 * on mock/fixtures/catalogue.openapi.yaml.
 */
let mock: Mock;

beforeAll(async () => {
  mock = await createMock({ spec: join(PACKAGE_ROOT, 'mock', 'fixtures', 'catalogue.openapi.yaml') });
});

afterAll(async () => {
  await mock?.dispose();
});

describe('a collection no request can add to', () => {
  it('starts with one valid record whose id is the read\'s example id: listed, read, deleted like any other', () => {
    const listed = call(mock.handle, { url: '/api/plans' });
    expect(listed.json.data).toEqual([{ id: 'basic-monthly', object: 'plan', price: expect.any(Number) }]);
    expect(listed.json.data[0].price).toBeGreaterThanOrEqual(1);
    expect(call(mock.handle, { url: '/api/plans/basic-monthly' }).json).toEqual(listed.json.data[0]);
    expect(call(mock.handle, { method: 'DELETE', url: '/api/plans/basic-monthly' }).status).toBe(204);
    expect(call(mock.handle, { url: '/api/plans/basic-monthly' }).status).toBe(404);
    expect(mock.notes.join('\n')).toContain('plans');
  });

  it('one whose read shows no example id starts empty', () => {
    expect(call(mock.handle, { url: '/api/regions' }).json).toEqual([]);
  });
});
