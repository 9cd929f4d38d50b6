import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * An item path whose ancestor is named by the same word as the record's own key member (spec/DECISIONS.md › D932):
 * in `/teams/{id}/boards/{boardId}/cards/{cardId}`, `{id}` names the team, and a card's `id` is the card's own key,
 * not a value the path must repeat (D145 reads `{owner}` of `/repos/{owner}/{repo}` from the record). Our mock held a
 * card's `id` to the team's, and the suite named the team by the card's `id`: each read of a card made under a team
 * was 404.
 */
const record = (extra: string): string => `{ type: object, required: [name], properties: { id: { type: integer, readOnly: true }, name: { type: string, minLength: 1, maxLength: 20 }${extra} } }`;
const TEAM = record('');
const BOARD = record('');
const CARD = record(', points: { type: integer, minimum: 0, maximum: 9 }');
const item = (name: string, schema: string, params: string[], write: boolean): string => `    get:
      operationId: get${name}
      parameters: [${params.map((p) => `{ name: ${p}, in: path, required: true, schema: { type: integer } }`).join(', ')}]
      responses:
        '200': { description: One., content: { application/json: { schema: ${schema} } } }
        '404': { description: None. }${write ? `
    put:
      operationId: put${name}
      parameters: [${params.map((p) => `{ name: ${p}, in: path, required: true, schema: { type: integer } }`).join(', ')}]
      requestBody: { required: true, content: { application/json: { schema: ${schema} } } }
      responses:
        '200': { description: Replaced., content: { application/json: { schema: ${schema} } } }
        '404': { description: None. }` : ''}
`;
const create = (name: string, schema: string, params: string[]): string => `    post:
      operationId: create${name}
      ${params.length === 0 ? '' : `parameters: [${params.map((p) => `{ name: ${p}, in: path, required: true, schema: { type: integer } }`).join(', ')}]\n      `}requestBody: { required: true, content: { application/json: { schema: ${schema} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${schema} } } }
        '404': { description: No parent. }
`;
const SPEC = `openapi: 3.0.3
info: { title: Teams, version: '1' }
paths:
  /teams:
${create('Team', TEAM, [])}  /teams/{id}:
${item('Team', TEAM, ['id'], false)}  /teams/{id}/boards:
${create('Board', BOARD, ['id'])}  /teams/{id}/boards/{boardId}:
${item('Board', BOARD, ['id', 'boardId'], false)}  /teams/{id}/boards/{boardId}/cards:
${create('Card', CARD, ['id', 'boardId'])}  /teams/{id}/boards/{boardId}/cards/{cardId}:
${item('Card', CARD, ['id', 'boardId', 'cardId'], true)}`;

const started = specMock('own-key-ancestor', SPEC, ['k']);

describe("an ancestor's parameter named like the record's own key member (D932)", () => {
  test('a card is read under the team and board it was made under, whatever its own id', async () => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' };
    const post = async (path: string, name: string): Promise<number> => ((await (await fetch(`${started.mock.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify({ name }) })).json()) as { id: number }).id;
    await post('/teams', 's');
    await post('/teams', 'u');
    const team = await post('/teams', 't');
    const board = await post(`/teams/${team}/boards`, 'b');
    const card = await post(`/teams/${team}/boards/${board}/cards`, 'c');
    await post(`/teams/${team}/boards/${board}/cards`, 'd');
    expect(card).not.toBe(team);
    const read = await fetch(`${started.mock.baseUrl}/teams/${team}/boards/${board}/cards/${card}`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: card, name: 'c' });
  }, 30_000);

  test("the suite's reads and replaces of cards pass on our mock", async () => {
    await expectChecksPass(started, (id) => id === 'getCard.found' || id === 'putCard.persisted', ['getCard.found', 'putCard.persisted']);
  }, 60_000);
});
