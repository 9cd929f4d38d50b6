import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A description whose own paths lie under the mock's admin prefix (spec/DECISIONS.md › D726): an API whose admin
 * interface is itself served at `/__admin/…`. The description's paths are the contract, so the mock answers them as
 * described (a list in its wrapper, the records the client wrote) instead of its own admin API, and the suite's checks
 * of the resource pass on it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Stub admin, version: '1' }
paths:
  /__admin/mappings:
    get:
      operationId: listMappings
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
        - { name: offset, in: query, schema: { type: integer } }
      responses:
        '200':
          description: Every mapping.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                properties:
                  mappings: { type: array, items: { $ref: '#/components/schemas/Mapping' } }
                  meta: { type: object, required: [total], properties: { total: { type: integer } } }
    post:
      operationId: createMapping
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Mapping' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Mapping' } } } }
  /__admin/mappings/{stubMappingId}:
    get:
      operationId: getMapping
      parameters: [{ name: stubMappingId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Mapping' } } } }
        '404': { description: None. }
components:
  schemas:
    Mapping:
      type: object
      additionalProperties: false
      properties:
        id: { type: string }
        name: { type: string }
        priority: { type: integer, minimum: 1 }
`;

const started = specMock('admin-paths', SPEC, ['k']);

describe('a description whose paths lie under the admin prefix (D726)', () => {
  test('its list and records are answered as described, not by the admin API', async () => {
    const made = (await (await fetch(`${started.mock.baseUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'greeting', priority: 2 }) })).json()) as { id: string; name: string };
    expect(made.name).toBe('greeting');
    const listed = await fetch(`${started.mock.baseUrl}/__admin/mappings?limit=100`);
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { mappings: { id: string }[] };
    expect(Array.isArray(page)).toBe(false);
    expect(page.mappings.map((mapping) => mapping.id)).toContain(made.id);
  });

  test("the suite's checks of the mappings pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['createMapping.echo', 'getMapping.found', 'listMappings.limit']);
  }, 90_000);
});
