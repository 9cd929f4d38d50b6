import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A required query parameter that is a list of objects (spec/DECISIONS.md › D725): OpenAPI's styles give an object
 * item no form of its own, so each item travels as its JSON text, as the suite sends it; the mock reads each such
 * text back as the object, and refuses text that is not one, where it refused every value before.
 */
const SPEC = `openapi: 3.0.3
info: { title: Markers, version: '1' }
paths:
  /markers:
    get:
      operationId: getMarkers
      parameters:
        - { name: timeline, in: query, required: true, schema: { type: array, items: { type: object } } }
      responses:
        '200': { description: The markers., content: { application/json: { schema: { type: object, properties: { home: { type: object, properties: { last_read_id: { type: string } } } } } } } }
        '400': { description: Refused., content: { application/json: { schema: { type: object, properties: { error: { type: string } } } } } }
`;

const started = specMock('object-items-query', SPEC, ['k']);

describe('a query list of objects, each item sent as its JSON text (D725)', () => {
  test('an object item is taken, text that is no object is refused', async () => {
    const ok = await fetch(`${started.mock.baseUrl}/markers?timeline=${encodeURIComponent('{"name":"home"}')}&timeline=${encodeURIComponent('{}')}`);
    expect(ok.status).toBe(200);
    const refused = await fetch(`${started.mock.baseUrl}/markers?timeline=home`);
    expect(refused.status).toBe(400);
    const notObject = await fetch(`${started.mock.baseUrl}/markers?timeline=${encodeURIComponent('[1]')}`);
    expect(notObject.status).toBe(400);
  });

  test("the suite's checks of the operation pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['getMarkers.documented']);
  }, 60_000);
});
