import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A singleton under a parent no resource holds, known by the description's examples (spec/DECISIONS.md › D924-D926),
 * in the shape of a schema registry: the parent's read answers an artifact's content, whose example names no id, and
 * its path parameters exemplify `"my-group"` and `"my-item"`; under it, `…/meta` is one record per item (`GET` reads
 * it, `PUT` replaces it, `POST` makes it); beside it, an operation takes any media type (`*\/*`). The parent the
 * parameters exemplify exists on our mock, the singleton's operations name no key in their bodies, and a body sent
 * in a type within the documented range is taken: the suite's checks pass on our mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Registry, version: '1' }
paths:
  /groups/{groupId}/items/{itemId}:
    parameters:
      - { name: groupId, in: path, required: true, schema: { type: string, example: '"my-group"' } }
      - { name: itemId, in: path, required: true, schema: { type: string, example: '"my-item"' } }
    get:
      operationId: getItem
      responses:
        '200': { description: The content., content: { application/json: { schema: { type: object }, example: { openapi: 3.0.2, info: { title: Empty } } } } }
        '404': { description: None. }
  /groups/{groupId}/items/{itemId}/meta:
    parameters:
      - { name: groupId, in: path, required: true, schema: { type: string, example: '"my-group"' } }
      - { name: itemId, in: path, required: true, schema: { type: string, example: '"my-item"' } }
    get:
      operationId: getItemMeta
      responses:
        '200': { description: Its metadata., content: { application/json: { schema: { $ref: '#/components/schemas/Meta' } } } }
        '404': { description: None. }
    put:
      operationId: updateItemMeta
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/EditableMeta' } } } }
      responses:
        '204': { description: Changed. }
        '404': { description: None. }
    post:
      operationId: findItemMetaByContent
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/EditableMeta' } } } }
      responses:
        '200': { description: Found., content: { application/json: { schema: { $ref: '#/components/schemas/Meta' } } } }
        '404': { description: None. }
  /groups/{groupId}/items/{itemId}/test:
    parameters:
      - { name: groupId, in: path, required: true, schema: { type: string } }
      - { name: itemId, in: path, required: true, schema: { type: string } }
    put:
      operationId: testItem
      requestBody: { required: true, content: { '*/*': { schema: { type: string } } } }
      responses:
        '204': { description: It would be taken. }
        '404': { description: None. }
components:
  schemas:
    EditableMeta:
      type: object
      properties:
        name: { type: string, maxLength: 20 }
        description: { type: string, maxLength: 40 }
    Meta:
      type: object
      required: [id, createdOn]
      properties:
        id: { type: string, readOnly: true }
        createdOn: { type: string, format: date-time, readOnly: true }
        name: { type: string, maxLength: 20 }
        description: { type: string, maxLength: 40 }
`;

const started = specMock('exemplified-singleton', SPEC, ['k']);

describe('a singleton under a parent its parameters exemplify, and a body of any type (D924-D926)', () => {
  test('the singleton is made, read and replaced at the exemplified parent; another parent is a 404', async () => {
    const base = `${started.mock.baseUrl}/groups/${encodeURIComponent('"my-group"')}/items/${encodeURIComponent('"my-item"')}/meta`;
    const made = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'first' }) });
    expect(made.status).toBe(200);
    expect(((await (await fetch(base)).json()) as Record<string, unknown>)['name']).toBe('first');
    expect((await fetch(base, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'second' }) })).status).toBe(204);
    expect(((await (await fetch(base)).json()) as Record<string, unknown>)['name']).toBe('second');
    expect((await fetch(`${started.mock.baseUrl}/groups/other/items/other/meta`)).status).toBe(404);
    const tested = await fetch(`${started.mock.baseUrl}/groups/a/items/b/test`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '"a"' });
    expect(tested.status).toBe(204);
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['findItemMetaByContent.echo', 'getItemMeta.found', 'updateItemMeta.persisted', 'testItem.documented']);
  }, 120_000);
});
