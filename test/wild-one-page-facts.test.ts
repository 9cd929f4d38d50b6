import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list that no parameter pages (only a page size) whose wrapper requires its page number and links to the pages
 * before and after it, which may be null (spec/DECISIONS.md › D824, D826): the one page it answers is the first, so
 * the mock writes `page: 1` there and `null` for the links to no page, never leaves a required member out, and the
 * suite's checks of the list pass.
 */
const SPEC = `openapi: 3.0.3
info: { title: Finder, version: '1' }
paths:
  /search:
    get:
      operationId: search
      parameters:
        - { name: term, in: query, required: true, schema: { type: string } }
        - { name: max_results, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 20 } }
      responses:
        '200':
          description: Found.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [results, paging, links]
                properties:
                  results: { type: array, items: { type: object, properties: { title: { type: string } } } }
                  links:
                    type: object
                    required: [prev, next]
                    properties:
                      prev: { type: string, nullable: true }
                      next: { type: string, nullable: true }
                  paging:
                    type: object
                    additionalProperties: false
                    required: [page, total]
                    properties:
                      page: { type: integer, minimum: 0 }
                      total: { type: integer, minimum: -1 }
                      size: { type: integer, minimum: -1 }
        '400': { description: Refused. }
`;

const started = specMock('one-page-facts', SPEC, ['k']);

describe('a list no parameter pages, whose wrapper requires its page number and its links (D824, D826)', () => {
  test('the mock answers its one page as page 1, with null links to the pages before and after it', async () => {
    const answer = (await (await fetch(`${started.mock.baseUrl}/search?term=a&max_results=5`)).json()) as { paging: Record<string, unknown>; links: Record<string, unknown> };
    expect(answer.paging['page']).toBe(1);
    expect(answer.links).toEqual({ prev: null, next: null });
  });

  test("the suite's checks of the list pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['search.documented']);
  }, 90_000);
});
