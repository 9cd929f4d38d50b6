import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, startMock, type StartedMock } from '../mock/index.js';
import { ensureBuilt } from '../test/built-cli.js';
import { PACKAGE_ROOT } from '../mock/operations.js';
import { createPet, listPets, listPetsExact, petstoreClient } from './typed-client.js';

/** The typed client example against the real mock over a socket (README › Typed client). */

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

describe('typed client (openapi-fetch with the spec\'s types)', () => {
  it('lists, filters and creates pets', async () => {
    const client = petstoreClient(mock.baseUrl, DEFAULT_API_KEY);
    expect(await listPets(client, { limit: 3 })).toHaveLength(3);
    const sold = await listPets(client, { status: 'sold' });
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    const created = await createPet(client, { name: 'Typed', categoryId: 4, status: 'pending' });
    expect(created).toEqual({ id: expect.any(Number), name: 'Typed', categoryId: 4, status: 'pending' });
  });

  it('turns an Error answer into a thrown error with its code', async () => {
    await expect(listPets(petstoreClient(mock.baseUrl, 'wrong-key'))).rejects.toThrow(/^UNAUTHORIZED: /);
  });

  it('reads int64 values above 2^53 exactly with listPetsExact, where plain JSON.parse loses a digit', async () => {
    const put = await fetch(`${new URL(mock.baseUrl).origin}/__admin/pets`, { method: 'PUT', body: '[{"id":9223372036854775807,"name":"Huge","categoryId":9007199254740993}]' });
    expect(put.status).toBe(200);
    const client = petstoreClient(mock.baseUrl, DEFAULT_API_KEY);
    const [plain] = await listPets(client);
    expect(plain!.categoryId).toBe(9007199254740992);
    const [exact] = await listPetsExact(client);
    expect(exact).toEqual({ id: 9223372036854775807n, name: 'Huge', categoryId: 9007199254740993n });
  });
});

describe('package export of the types', () => {
  it('`openapi-harness/types` points at the compiled spec types, with a .d.ts', () => {
    ensureBuilt();
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
    const entry = pkg.exports['./types']!;
    expect(entry.types).toBe('./dist/model/openapi.d.ts');
    expect(readFileSync(join(PACKAGE_ROOT, entry.types), 'utf8')).toContain('export interface paths');
    expect(import.meta.resolve('openapi-harness/types')).toBe(`file://${join(PACKAGE_ROOT, entry.default)}`);
  });
});
