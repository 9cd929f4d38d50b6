import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A request body documented under a media range (spec/DECISIONS.md › D931): `*\/*`, as descriptions generated from
 * server frameworks write it, takes a body of any concrete type and reads it as that type; `image/*` takes any image
 * and nothing else. The suite sends such a body as JSON, and our mock took only the literal `*\/*`.
 */
const SPEC = `openapi: 3.0.3
info: { title: Groups, version: '1' }
paths:
  /groups/{groupId}/refresh:
    post:
      operationId: refreshGroup
      parameters: [{ name: groupId, in: path, required: true, schema: { type: string } }]
      requestBody: { content: { '*/*': { schema: { type: object, properties: { reason: { type: string } } } } } }
      responses:
        '200': { description: Refreshed., content: { application/json: { schema: { type: object, properties: { ok: { type: boolean } } } } } }
        '404': { description: No such group. }
  /groups/{groupId}/icon:
    put:
      operationId: putGroupIcon
      parameters: [{ name: groupId, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { 'image/*': { schema: { type: string, format: binary } } } }
      responses:
        '204': { description: Stored. }
        '404': { description: No such group. }
`;

const started = specMock('media-range-body', SPEC, ['k']);

describe('a request body documented under a media range (D931)', () => {
  test('takes a concrete type within the range, read as that type, and refuses one outside it', async () => {
    const send = async (path: string, method: string, type: string, body: string | Uint8Array): Promise<number> =>
      (await fetch(`${started.mock.baseUrl}${path}`, { method, headers: { 'content-type': type, authorization: 'Bearer k' }, body })).status;
    expect(await send('/groups/a/refresh', 'POST', 'application/json', '{"reason":"r"}')).toBe(200);
    // Read as JSON, the body is still held to its schema.
    expect(await send('/groups/a/refresh', 'POST', 'application/json', '{"reason":1}')).toBe(400);
    expect(await send('/groups/a/icon', 'PUT', 'image/png', new Uint8Array([137, 80, 78, 71]))).toBe(204);
    expect(await send('/groups/a/icon', 'PUT', 'text/plain', 'not an image')).toBe(415);
  }, 30_000);

  test("the suite's documented check passes on our mock", async () => {
    await expectChecksPass(started, (id) => id === 'refreshGroup.documented', ['refreshGroup.documented']);
  }, 60_000);
});
