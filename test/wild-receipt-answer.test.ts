import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A create that answers a receipt, another schema than the record read back (spec/DECISIONS.md › D720, D721): the
 * receipt types the key as a string of digits where the read has an integer, and types two other members otherwise
 * (`approved` an integer code in the receipt, a boolean in the record; `message_id` digits in one, a number in the
 * other). The mock answers the new record's own key as digits, never the sample's `"string"` for every record, and
 * the suite does not hold the read to receipt values the record's schema refuses.
 */
const SPEC = `openapi: 3.0.3
info: { title: Charges, version: '1' }
paths:
  /charges:
    post:
      operationId: createCharge
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/ChargeRequest' } } }
      responses:
        '200': { description: The receipt., content: { application/json: { schema: { $ref: '#/components/schemas/Receipt' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /charges/{chargeId}:
    get:
      operationId: getCharge
      parameters: [{ name: chargeId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: The charge., content: { application/json: { schema: { $ref: '#/components/schemas/Charge' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
components:
  schemas:
    ChargeRequest:
      type: object
      required: [amount, method]
      properties:
        amount: { type: number }
        method: { type: string }
        note: { type: string }
    Receipt:
      type: object
      properties:
        id: { type: string, description: digits (9) }
        approved: { type: integer, description: 1 approved, 0 declined }
        message_id: { type: string, description: digits (3) }
        amount: { type: number }
        method: { type: string }
        note: { type: string }
    Charge:
      type: object
      properties:
        id: { type: integer }
        approved: { type: boolean }
        message_id: { type: integer }
        amount: { type: number }
        method: { type: string }
        note: { type: string }
    Problem:
      type: object
      properties:
        code: { type: integer }
        message: { type: string }
`;

const started = specMock('receipt-answer', SPEC, ['k']);

describe('a create answering a receipt typed otherwise than the record (D720, D721)', () => {
  test("the receipt carries the new record's key as its digits", async () => {
    const headers = { 'content-type': 'application/json' };
    const send = async (): Promise<{ id: unknown }> => (await (await fetch(`${started.mock.baseUrl}/charges`, { method: 'POST', headers, body: JSON.stringify({ amount: 5, method: 'card' }) })).json()) as { id: unknown };
    const first = await send();
    const second = await send();
    expect(first.id).toMatch(/^\d+$/);
    expect(second.id).toMatch(/^\d+$/);
    expect(second.id).not.toBe(first.id);
    const read = await fetch(`${started.mock.baseUrl}/charges/${String(first.id)}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: unknown }).id).toBe(Number(first.id));
  });

  test("the suite's checks of the charges pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['createCharge.echo', 'getCharge.found', 'stateful.model', 'concurrency.create']);
  }, 90_000);
});
