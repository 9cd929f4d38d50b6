import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A list paged by offset whose array of records the schema says is never empty (`minItems: 1`) and which documents
 * 404 (spec/DECISIONS.md › D555): a page past the end is the documented 404, not an empty page its own schema
 * refuses, so the suite's walk of its pages, which asks one page past a full last one, passes our mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Inbox, version: '1' }
paths:
  /inbox:
    get:
      operationId: getInbox
      parameters:
        - { name: offset, in: query, schema: { type: integer, minimum: 0, default: 0 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 1000, default: 100 } }
      responses:
        '200':
          description: The messages.
          content:
            application/json:
              schema:
                type: object
                properties:
                  total: { type: integer }
                  messages:
                    type: array
                    minItems: 1
                    items:
                      type: object
                      properties:
                        messageId: { type: integer }
                        text: { type: string }
                example:
                  total: 2
                  messages:
                    - { messageId: 58324, text: Win Big }
                    - { messageId: 58336, text: Savings for me }
        '404': { description: No messages. }
  /notes:
    get:
      operationId: listNotes
      parameters:
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses:
        '200':
          description: The notes.
          content:
            application/json:
              schema: { type: object, properties: { notes: { type: array, minItems: 1, items: { $ref: '#/components/schemas/Note' } } } }
        '404': { description: No notes. }
    post:
      operationId: createNote
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
  /notes/{id}:
    get:
      operationId: getNote
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: The note., content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '404': { description: None. }
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string, maxLength: 20 }
`;

const started = specMock('page-end', SPEC, ['k']);

describe('a page past the end of a list whose array is never empty (D555)', () => {
  test('the mock answers the first pages with records and the page past the end with the documented 404', async () => {
    const get = async (query: string): Promise<{ status: number; body: unknown }> => {
      const response = await fetch(`${started.mock.baseUrl}/inbox?${query}`, { headers: { authorization: 'Bearer k' } });
      return { status: response.status, body: await response.json() };
    };
    const first = await get('limit=1&offset=0');
    expect(first.status).toBe(200);
    expect((first.body as { messages: unknown[] }).messages).toHaveLength(1);
    expect((await get('limit=1&offset=1')).status).toBe(200);
    expect((await get('limit=1&offset=2')).status).toBe(404);
    expect((await get('limit=5')).status).toBe(200);
  });

  test('so does a list of records clients create', async () => {
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    for (const text of ['a', 'b']) expect((await fetch(`${started.mock.baseUrl}/notes`, { method: 'POST', headers, body: JSON.stringify({ text }) })).status).toBe(201);
    const status = async (query: string): Promise<number> => (await fetch(`${started.mock.baseUrl}/notes?${query}`, { headers })).status;
    expect([await status('limit=1&offset=0'), await status('limit=1&offset=1'), await status('limit=1&offset=2'), await status('limit=5')]).toEqual([200, 200, 404, 200]);
  });

  test("the suite's checks of the list pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('getInbox.') || id === 'listNotes.pages');
    expect(ids).toEqual(expect.arrayContaining(['getInbox.pages', 'listNotes.pages']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
