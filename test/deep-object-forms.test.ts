import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { encodeBody, survivesEncoding } from '../conformance/body-encoding.js';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A form body whose object members are declared `style: deepObject` (spec/DECISIONS.md › D228, D229), as the APIs
 * that take forms publish them: the suite sends those members in bracket notation, the mock reads them back into the
 * record, and the suite's checks of the create pass on the mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Form customers, version: '1' }
paths:
  /v1/customers:
    get:
      operationId: listCustomers
      responses:
        '200':
          description: customers
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Customer' } } } }
    post:
      operationId: createCustomer
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [email]
              properties:
                email: { type: string, minLength: 1, maxLength: 40 }
                metadata: { type: object, additionalProperties: { type: string, maxLength: 20 } }
                address: { $ref: '#/components/schemas/Address' }
            encoding:
              metadata: { style: deepObject, explode: true }
              address: { style: deepObject, explode: true }
      responses:
        '200':
          description: the customer
          content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } }
        '400':
          description: invalid
          content: { application/json: { schema: { type: object, required: [error], properties: { error: { type: object, properties: { message: { type: string } } } } } } }
  /v1/customers/{customer}:
    get:
      operationId: getCustomer
      parameters: [{ name: customer, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: the customer
          content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } }
        '404':
          description: none
          content: { application/json: { schema: { type: object, required: [error], properties: { error: { type: object, properties: { message: { type: string } } } } } } }
components:
  schemas:
    Address:
      type: object
      properties:
        line1: { type: string, maxLength: 30 }
        postal_code: { type: string, maxLength: 10 }
    Customer:
      type: object
      required: [id, email]
      properties:
        id: { type: string }
        email: { type: string }
        metadata: { type: object, additionalProperties: { type: string } }
        address: { $ref: '#/components/schemas/Address' }
`;

const started = specMock('deep-object-forms', SPEC, []);

describe('form members declared deepObject', () => {
  test('the suite writes them in bracket notation and reads them back as sent', async () => {
    const model = await loadModel(started.spec);
    const create = model.operations.find((op) => op.operationId === 'createCustomer')!;
    expect(create.body?.deepObjects).toEqual(['metadata', 'address']);
    const value = { email: 'a@b.c', metadata: { plan: 'pro' }, address: { line1: '1 Main', postal_code: '02110' } };
    expect(encodeBody(create, value).text).toBe('email=a%40b.c&metadata%5Bplan%5D=pro&address%5Bline1%5D=1+Main&address%5Bpostal_code%5D=02110');
    expect(survivesEncoding(create, create.body!, value)).toBe(true);
  });

  test('the mock stores what the brackets carry', async () => {
    const created = await fetch(`${started.mock.baseUrl}/v1/customers`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=x%40y.z&metadata[plan]=pro&address[line1]=1+Main' });
    expect(created.status).toBe(200);
    const record = (await created.json()) as { id: string };
    const read = await fetch(`${started.mock.baseUrl}/v1/customers/${record.id}`);
    expect(await read.json()).toMatchObject({ email: 'x@y.z', metadata: { plan: 'pro' }, address: { line1: '1 Main' } });
  });

  test("the create's checks pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'no-key-needed', spec: started.spec, runs: 10 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('createCustomer.') || id.startsWith('getCustomer.found'));
    expect(ids).toEqual(expect.arrayContaining(['createCustomer.echo', 'getCustomer.found']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 120_000);
});
