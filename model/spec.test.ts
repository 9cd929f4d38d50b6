import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, test } from 'vitest';
import { SPEC_PATH } from './loader.js';

// spec/openapi.yaml must be valid OpenAPI 3.1 and state what the seed states (seed sections in each test name).
const document = (await SwaggerParser.validate(SPEC_PATH)) as OpenAPIV3_1.Document;
const schemas = document.components!.schemas!;
const pets = document.paths!['/pets']!;
const pet = document.paths!['/pets/{petId}']!;

describe('spec/openapi.yaml', () => {
  test('is OpenAPI 3.1, version 1.0.0, with servers ending in /v1 (Versioning)', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const urls = document.servers!.map((server) => server.url.replace(/\{(\w+)\}/g, (_m, name: string) => server.variables![name]!.default));
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) expect(url).toMatch(/\/v1$/);
  });

  test('has exactly the three operations of the seed, bearer-secured (Endpoints; Authentication)', () => {
    expect([pets.get?.operationId, pets.post?.operationId, pet.get?.operationId]).toEqual(['listPets', 'createPet', 'getPet']);
    expect(document.components!.securitySchemes!['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const op of [pets.get!, pets.post!, pet.get!]) expect(op.security ?? document.security).toEqual([{ bearerAuth: [] }]);
  });

  test('listPets: limit 1..100 default 20, status a PetStatus; 200 Pets, 401, and the gap statuses 400, 503 (Endpoints §1; Limits; DECISIONS D10, D36)', () => {
    const [limit, status] = pets.get!.parameters as OpenAPIV3_1.ParameterObject[];
    expect(limit).toMatchObject({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(status).toMatchObject({ name: 'status', in: 'query', required: false, schema: { enum: ['available', 'pending', 'sold'] } });
    expect(Object.keys(pets.get!.responses!).sort()).toEqual(['200', '400', '401', '503']);
  });

  test('createPet: required JSON NewPet body; 201, 400, 401, and the gap statuses 409, 413, 415, 503 (Endpoints §2; DECISIONS D14, D19, D36)', () => {
    const body = pets.post!.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['application/json']);
    expect(Object.keys(pets.post!.responses!).sort()).toEqual(['201', '400', '401', '409', '413', '415', '503']);
  });

  test('getPet: deprecated, removal 5 December 2030, int64 petId; 200, 401, 404, and the gap status 503 (Endpoints §3; DECISIONS D36)', () => {
    const op = pet.get! as OpenAPIV3_1.OperationObject & { 'x-sunset'?: string };
    expect(op.deprecated).toBe(true);
    expect(op['x-sunset']).toBe('2030-12-05');
    expect((op.parameters as OpenAPIV3_1.ParameterObject[])[0]).toMatchObject({ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } });
    expect(Object.keys(op.responses!).sort()).toEqual(['200', '401', '404', '503']);
  });

  test('schemas: NewPet, Pet, Pets (bare array), Error, PetStatus (Resources and their fields)', () => {
    expect(schemas['PetStatus']).toMatchObject({ type: 'string', enum: ['available', 'pending', 'sold'] });
    expect(schemas['NewPet']).toMatchObject({ type: 'object', required: ['name', 'categoryId'], properties: { name: { type: 'string' }, categoryId: { type: 'integer', format: 'int64' } } });
    expect(schemas['Pet']).toMatchObject({ type: 'object', required: ['id', 'name', 'categoryId'], properties: { id: { type: 'integer', format: 'int64' } } });
    expect(schemas['Pets']).toMatchObject({ type: 'array', items: { type: 'object', required: ['id', 'name', 'categoryId'] } });
    expect(schemas['Error']).toMatchObject({ type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } });
  });
});
