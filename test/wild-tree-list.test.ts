import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A collection whose GET answers a tree (a node with its children, the node's schema recursive) beside a create
 * that wraps the record in an envelope (`{category: {...}}`) where the client may send the id
 * (spec/DECISIONS.md › D627): the create's body is read against the read's record, which names members, so the
 * client may choose the id, and our mock and the suite agree on it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Shelves, version: '1' }
paths:
  /V1/categories:
    get:
      operationId: getTree
      responses:
        '200': { description: The tree., content: { application/json: { schema: { $ref: '#/components/schemas/TreeNode' } } } }
    post:
      operationId: saveCategory
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [category], properties: { category: { $ref: '#/components/schemas/Category' } } } } } }
      responses:
        '200': { description: Saved., content: { application/json: { schema: { $ref: '#/components/schemas/Category' } } } }
  /V1/categories/{categoryId}:
    get:
      operationId: getCategory
      parameters: [{ name: categoryId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Category' } } } }
        '404': { description: None. }
  /V1/categories/{id}:
    put:
      operationId: replaceCategory
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [category], properties: { category: { $ref: '#/components/schemas/Category' } } } } } }
      responses:
        '200': { description: Saved., content: { application/json: { schema: { $ref: '#/components/schemas/Category' } } } }
        '404': { description: None. }
components:
  schemas:
    TreeNode:
      type: object
      required: [children_data]
      properties:
        children_data: { type: array, items: { $ref: '#/components/schemas/TreeNode' } }
    Category:
      type: object
      properties:
        id: { type: integer }
        name: { type: string, maxLength: 20 }
        is_active: { type: boolean }
`;

const started = specMock('tree-list', SPEC, ['k']);

describe('a create read against the record a read answers, where the list is a tree (D627)', () => {
  test('the client may choose the id inside the envelope', async () => {
    const resource = (await loadModel(started.spec)).resources.find((one) => one.name === 'categories')!;
    expect([resource.idProperty, resource.idSource]).toEqual(['id', 'either']);
  });

  test("the suite's checks of the resource pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('saveCategory.') || id.startsWith('getCategory.') || id.startsWith('replaceCategory.'), ['saveCategory.echo', 'getCategory.found', 'replaceCategory.persisted', 'replaceCategory.invalid-body']);
  }, 90_000);
});
