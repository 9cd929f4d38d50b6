import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import { CORPUS, corpusSpec } from './corpus.js';
import { PROBES } from './corpus-probes.js';

// Every corpus spec is a valid OpenAPI document (swagger-parser, Spectral's `spectral:oas` without errors) and
// its model carries the edit: the mock and the suite read nothing else, so a model that missed the edit would
// make every later test of the case meaningless.

describe('the corpus specs are valid OpenAPI', () => {
  test('every file of spec/corpus is a listed case with probes, and every case has its file', () => {
    const files = readdirSync(join(PACKAGE_ROOT, 'spec', 'corpus')).filter((file) => file.endsWith('.yaml')).map((file) => file.slice(0, -'.yaml'.length));
    expect(files.sort()).toEqual(CORPUS.map((c) => c.name).sort());
    expect(Object.keys(PROBES).sort()).toEqual(files);
  });

  test.each(CORPUS.map((c) => c.name))('%s passes SwaggerParser.validate', async (name) => {
    await expect(SwaggerParser.validate(corpusSpec(name))).resolves.toBeTruthy();
  });

  test('every corpus spec passes Spectral (spec/.spectral.yaml) without errors', async () => {
    const spectral = join(PACKAGE_ROOT, 'node_modules', '.bin', 'spectral');
    const files = CORPUS.map((c) => corpusSpec(c.name));
    const run = promisify(execFile)(spectral, ['lint', '--fail-severity=error', '--ruleset', join(PACKAGE_ROOT, 'spec', '.spectral.yaml'), ...files]);
    await expect(run).resolves.toBeTruthy();
  });
});

describe('the model of each corpus spec carries its edit', () => {
  const model = (name: string) => loadModel(corpusSpec(name));
  const pets = async (name: string) => (await model(name)).resources.find((r) => r.collectionPath === '/pets')!;

  test('optional-field: nickname is a record property, not required', async () => {
    const resource = await pets('optional-field');
    expect(Object.keys(resource.properties)).toContain('nickname');
    expect(resource.required).not.toContain('nickname');
  });

  test('required-field: breed is required in the create body and the record', async () => {
    const resource = await pets('required-field');
    expect(resource.required).toContain('breed');
    expect(resource.operations.create!.body!.schema['required']).toContain('breed');
  });

  test('new-enum-value: the status filter knows reserved', async () => {
    const resource = await pets('new-enum-value');
    expect(resource.filters.find((f) => f.property === 'status')!.values).toContain('reserved');
  });

  test('new-filter and boolean-filter: the new query parameters are filters', async () => {
    expect((await pets('new-filter')).filters.map((f) => f.property)).toEqual(['status', 'categoryId']);
    const vaccinated = (await pets('boolean-filter')).filters.find((f) => f.property === 'vaccinated');
    expect(vaccinated?.values).toEqual([true, false]);
  });

  test('limit-bounds: 1..50, default 10', async () => {
    expect((await pets('limit-bounds')).limit).toEqual({ parameter: 'limit', minimum: 1, maximum: 50, default: 10 });
  });

  test('delete, put-update, patch-update: the item operations take their roles', async () => {
    expect((await pets('delete')).operations.delete?.operationId).toBe('deletePet');
    expect((await pets('put-update')).operations.replace?.operationId).toBe('replacePet');
    expect((await pets('patch-update')).operations.update?.operationId).toBe('updatePet');
  });

  test('second-resource: owners with string uuid ids and a city filter', async () => {
    const owners = (await model('second-resource')).resources.find((r) => r.collectionPath === '/owners')!;
    expect(owners).toMatchObject({ idProperty: 'id', idType: 'string', idParameter: 'ownerId' });
    expect(owners.idSchema['format']).toBe('uuid');
    expect(owners.filters.map((f) => f.property)).toEqual(['city']);
  });

  test('v2-base-path: served at /v2', async () => {
    expect((await model('v2-base-path')).basePath).toBe('/v2');
  });

  test('openapi-3.0: nullable nickname becomes a null-accepting type', async () => {
    const resource = await pets('openapi-3.0');
    expect(resource.operations.create!.body!.validate({ name: 'a', categoryId: 1, nickname: null })).toBe(true);
    expect(resource.operations.create!.body!.validate({ name: 'a', categoryId: 1, status: null })).toBe(false);
  });

  test('no-security: no operation asks for credentials', async () => {
    expect((await model('no-security')).operations.every((op) => op.security.length === 0)).toBe(true);
  });

  test('create-200: createPet succeeds with 200', async () => {
    expect((await pets('create-200')).operations.create!.successStatus).toBe(200);
  });

  test('problem-json-errors: a 404 is problem details in application/problem+json', async () => {
    const read = (await pets('problem-json-errors')).operations.read!;
    const { value, mediaType } = read.errors.body({ code: 'PET_NOT_FOUND', message: 'no animal has id 7', status: 404 });
    expect(mediaType).toBe('application/problem+json');
    expect(value).toMatchObject({ status: 404, detail: 'no animal has id 7', title: 'Not Found' });
    expect(typeof value['type']).toBe('string');
  });

  test('allof-pet: the record has every NewPet field plus id', async () => {
    const resource = await pets('allof-pet');
    expect(Object.keys(resource.properties).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    expect(resource.idProperty).toBe('id');
  });

  test('nested-record: microchip and tagIds are record properties, neither a filter', async () => {
    const resource = await pets('nested-record');
    expect(Object.keys(resource.properties)).toEqual(expect.arrayContaining(['microchip', 'tagIds']));
    expect(resource.filters.map((f) => f.property)).toEqual(['status']);
  });

  test('unmapped-operation: getInventory belongs to no resource, and the notes say so', async () => {
    const loaded = await model('unmapped-operation');
    expect(loaded.operations.find((op) => op.operationId === 'getInventory')!.resource).toBeUndefined();
    expect(loaded.notes.join('\n')).toContain('getInventory');
  });
});
