import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { specMock } from './spec-mock.js';

/**
 * A sub-collection whose `GET` answers its records beside an envelope's own list of errors
 * (`{"orders": [...], "errors": [...], "cursor": …}`, spec/DECISIONS.md › D935) is a list, not a singleton: a second
 * create under the same parent adds a record rather than taking the place of the first, so the first stays readable.
 */
const ORDER = `{ type: object, properties: { id: { type: string, readOnly: true }, shop_id: { type: string, readOnly: true }, note: { type: string, maxLength: 20 } } }`;
const ERROR = `{ type: object, properties: { code: { type: string }, detail: { type: string } } }`;
const SHOP = `{ type: object, properties: { id: { type: string, readOnly: true }, name: { type: string, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Shops, version: '1' }
paths:
  /shops:
    post:
      operationId: createShop
      requestBody: { required: true, content: { application/json: { schema: ${SHOP} } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${SHOP} } } }
  /shops/{shop_id}:
    get:
      operationId: getShop
      parameters: [{ name: shop_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${SHOP} } } }
        '404': { description: None. }
  /shops/{shop_id}/orders:
    parameters: [{ name: shop_id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: listOrders
      responses:
        '200': { description: The orders., content: { application/json: { schema: { type: object, properties: { errors: { type: array, items: ${ERROR} }, orders: { type: array, items: ${ORDER} }, cursor: { type: string } } } } } }
    post:
      operationId: createOrder
      requestBody: { required: true, content: { application/json: { schema: ${ORDER} } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${ORDER} } } }
  /shops/{shop_id}/orders/{order_id}:
    get:
      operationId: getOrder
      parameters: [{ name: shop_id, in: path, required: true, schema: { type: string } }, { name: order_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${ORDER} } } }
        '404': { description: None. }
`;

const started = specMock('errors-beside-records', SPEC, ['k']);

describe('records beside an envelope\'s own list of errors (D935)', () => {
  test('the sub-collection is a list, and a second create under one parent keeps the first', async () => {
    const orders = (await loadModel(started.spec)).resources.find((resource) => resource.operations.create?.operationId === 'createOrder');
    expect(orders?.operations.list?.operationId).toBe('listOrders');
    expect(orders?.parent?.singleton).toBe(false);
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' };
    const post = async (path: string, body: object): Promise<{ id: string }> => (await (await fetch(`${started.mock.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
    const shop = await post('/shops', { name: 's' });
    const first = await post(`/shops/${shop.id}/orders`, { note: 'one' });
    const second = await post(`/shops/${shop.id}/orders`, { note: 'two' });
    expect(second.id).not.toBe(first.id);
    expect((await fetch(`${started.mock.baseUrl}/shops/${shop.id}/orders/${first.id}`, { headers })).status).toBe(200);
    const listed = (await (await fetch(`${started.mock.baseUrl}/shops/${shop.id}/orders`, { headers })).json()) as { orders: { id: string }[] };
    expect(listed.orders.map((order) => order.id).sort()).toEqual([first.id, second.id].sort());
  }, 30_000);
});
