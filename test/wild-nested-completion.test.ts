import { describe, expect, test } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Objects a create sends in its own form inside a record whose form requires more of them (spec/DECISIONS.md ›
 * D723): a space is created with a list of broadcasts, each only its settings, and answered, read and listed with
 * each broadcast's own `id` and `status`, which the record's schema requires. The mock completes each sent object
 * with values of its own, so every answer of the record stays valid, and the suite's checks pass on it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Spaces, version: '1' }
paths:
  /spaces:
    get:
      operationId: listSpaces
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 25 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: object, required: [data], properties: { data: { type: array, items: { $ref: '#/components/schemas/Space' } } } } } } }
    post:
      operationId: createSpace
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                passthrough: { type: string }
                broadcasts: { type: array, items: { $ref: '#/components/schemas/BroadcastSettings' } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { type: object, required: [data], properties: { data: { $ref: '#/components/schemas/Space' } } } } } }
  /spaces/{spaceId}:
    get:
      operationId: getSpace
      parameters: [{ name: spaceId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { type: object, required: [data], properties: { data: { $ref: '#/components/schemas/Space' } } } } } }
        '404': { description: None. }
components:
  schemas:
    BroadcastSettings:
      type: object
      properties:
        layout: { type: string, enum: [gallery, active-speaker] }
        resolution: { type: string }
    Broadcast:
      type: object
      required: [id, status]
      properties:
        id: { type: string }
        status: { type: string, enum: [idle, active] }
        layout: { type: string, enum: [gallery, active-speaker] }
        resolution: { type: string }
    Space:
      type: object
      required: [id, status]
      properties:
        id: { type: string }
        status: { type: string, enum: [idle, active] }
        passthrough: { type: string }
        broadcasts: { type: array, items: { $ref: '#/components/schemas/Broadcast' } }
`;

const BROADCAST = { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: { enum: ['idle', 'active'] }, layout: { enum: ['gallery', 'active-speaker'] }, resolution: { type: 'string' } } };
const validBroadcasts = new Ajv2020().compile({ type: 'array', items: BROADCAST });

const started = specMock('nested-completion', SPEC, ['k']);

describe('objects sent in their own form inside a record that requires more of them (D723)', () => {
  test('each broadcast is answered, read and listed with its own id and status, the settings sent kept', async () => {
    const headers = { 'content-type': 'application/json' };
    const made = (await (await fetch(`${started.mock.baseUrl}/spaces`, { method: 'POST', headers, body: JSON.stringify({ passthrough: 'p', broadcasts: [{ layout: 'gallery', resolution: '1920x1080' }, {}] }) })).json()) as { data: { id: string; broadcasts: unknown[] } };
    expect(validBroadcasts(made.data.broadcasts), JSON.stringify(made.data.broadcasts)).toBe(true);
    expect(made.data.broadcasts[0]).toMatchObject({ layout: 'gallery', resolution: '1920x1080' });
    const read = (await (await fetch(`${started.mock.baseUrl}/spaces/${made.data.id}`)).json()) as { data: { broadcasts: unknown[] } };
    expect(read.data.broadcasts).toEqual(made.data.broadcasts);
    const listed = (await (await fetch(`${started.mock.baseUrl}/spaces?limit=100`)).json()) as { data: { id: string; broadcasts?: unknown[] }[] };
    expect(listed.data.find((space) => space.id === made.data.id)?.broadcasts).toEqual(made.data.broadcasts);
  });

  test("the suite's checks of the spaces pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['createSpace.echo', 'getSpace.found', 'listSpaces.limit', 'stateful.model']);
  }, 90_000);
});
