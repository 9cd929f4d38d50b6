import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A singleton sub-resource (one record per parent: its `GET` answers one record, D53) whose create body requires a
 * key the client chooses (spec/DECISIONS.md › D930): where the create documents no 409, a second create under the
 * same parent takes the place of the first (D78), so the client-id check sends no second create to be refused;
 * where it documents 409, the second is refused and the check still holds the target to it.
 */
const BADGE = `{ type: object, required: [id, label], properties: { id: { type: integer, format: int64 }, label: { type: string, minLength: 1, maxLength: 20 } } }`;
const BOARD = `{ type: object, required: [title], properties: { id: { type: integer, readOnly: true }, title: { type: string, minLength: 1, maxLength: 20 } } }`;
const spec = (conflict: boolean): string => `openapi: 3.0.3
info: { title: Boards, version: '1' }
paths:
  /boards:
    post:
      operationId: createBoard
      requestBody: { required: true, content: { application/json: { schema: ${BOARD} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${BOARD} } } }
  /boards/{boardId}:
    get:
      operationId: getBoard
      parameters: [{ name: boardId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${BOARD} } } }
        '404': { description: None. }
  /boards/{boardId}/badge:
    parameters: [{ name: boardId, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: getBadge
      responses:
        '200': { description: The board's badge., content: { application/json: { schema: ${BADGE} } } }
        '404': { description: None. }
    post:
      operationId: setBadge
      requestBody: { required: true, content: { application/json: { schema: ${BADGE} } } }
      responses:
        '200': { description: Set., content: { application/json: { schema: ${BADGE} } } }
        '404': { description: No such board. }${conflict ? `
        '409': { description: The board has a badge already. }` : ''}
`;

const replacing = specMock('singleton-client-key', spec(false), ['k']);
const refusing = specMock('singleton-client-key-409', spec(true), ['k']);

describe("a singleton's create naming a key the client chose (D930)", () => {
  test('without a documented 409, a second create takes the place of the first, and the client-id check passes', async () => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' };
    const board = (await (await fetch(`${replacing.mock.baseUrl}/boards`, { method: 'POST', headers, body: JSON.stringify({ title: 'a' }) })).json()) as { id: number };
    const first = await fetch(`${replacing.mock.baseUrl}/boards/${board.id}/badge`, { method: 'POST', headers, body: JSON.stringify({ id: 7, label: 'one' }) });
    const second = await fetch(`${replacing.mock.baseUrl}/boards/${board.id}/badge`, { method: 'POST', headers, body: JSON.stringify({ id: 7, label: 'two' }) });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await (await fetch(`${replacing.mock.baseUrl}/boards/${board.id}/badge`, { headers })).json()).toEqual({ id: 7, label: 'two' });
    await expectChecksPass(replacing, (id) => id === 'setBadge.client-id', ['setBadge.client-id']);
  }, 60_000);

  test('with a documented 409, the second create is refused and the check passes holding the target to it', async () => {
    await expectChecksPass(refusing, (id) => id === 'setBadge.client-id', ['setBadge.client-id']);
  }, 60_000);
});
