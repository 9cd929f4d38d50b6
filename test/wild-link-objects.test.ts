import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list the suite cannot fill whose page links are objects (`links: {first: {href}, previous: {href}, …}`, `href`
 * required in each; spec/DECISIONS.md › D631): on the first page there is no previous page, so the mock leaves the
 * `previous` link out whole, never an object without its `href`, and the suite's page checks pass on our mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Exports, version: '1' }
paths:
  /exports:
    get:
      operationId: listExports
      parameters:
        - { name: pageNumber, in: query, schema: { type: integer, minimum: 1, default: 1 } }
        - { name: pageSize, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 25 } }
      responses:
        '200':
          description: A page.
          content:
            application/json:
              schema:
                type: object
                required: [exports, paginationResult]
                properties:
                  exports: { type: array, items: { type: object, properties: { name: { type: string }, size: { type: integer } } } }
                  paginationResult:
                    type: object
                    required: [entryCount, links]
                    properties:
                      entryCount: { type: integer }
                      links:
                        type: object
                        required: [first, last]
                        properties:
                          first: { $ref: '#/components/schemas/Link' }
                          last: { $ref: '#/components/schemas/Link' }
                          next: { $ref: '#/components/schemas/Link' }
                          previous: { $ref: '#/components/schemas/Link' }
              example:
                exports: [{ name: a, size: 1 }, { name: b, size: 2 }, { name: c, size: 3 }]
                paginationResult:
                  entryCount: 3
                  links:
                    first: { href: /exports?pageNumber=1, method: GET }
                    last: { href: /exports?pageNumber=1, method: GET }
                    next: { href: /exports?pageNumber=2, method: GET }
                    previous: { href: /exports?pageNumber=1, method: GET }
components:
  schemas:
    Link:
      type: object
      required: [href]
      properties:
        href: { type: string }
        method: { type: string }
`;

const started = specMock('link-objects', SPEC, ['k']);

describe('page links written as objects (D631)', () => {
  test('the first page has no previous link at all', async () => {
    const body = (await (await fetch(`${started.mock.baseUrl}/exports?pageSize=2`, { headers: { authorization: 'Bearer k' } })).json()) as { paginationResult: { links: Record<string, { href?: string }> } };
    expect(body.paginationResult.links['previous']).toBeUndefined();
    expect(typeof body.paginationResult.links['first']!.href).toBe('string');
  });

  test("the suite's checks of the list pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listExports.'), ['listExports.pages', 'listExports.limit']);
  }, 60_000);
});
