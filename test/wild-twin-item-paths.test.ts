import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Two GETs at one item path spelled with two parameter names (`/products/{param}` written first, then
 * `/products/{productId}` beside the replace), which OpenAPI calls identical (spec/DECISIONS.md › D904): the first is
 * the records' read, naming the record by its own parameter, and the second is reached by no request, so its
 * `.documented` check is not run; our mock then passes.
 */
const PRODUCT = `{ type: object, required: [name], properties: { id: { type: string, readOnly: true }, name: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Products, version: '1' }
paths:
  /products:
    post:
      operationId: createProduct
      requestBody: { required: true, content: { application/json: { schema: ${PRODUCT} } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${PRODUCT} } } }
  /products/{param}:
    get:
      operationId: getProductBySlug
      parameters: [{ name: param, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${PRODUCT} } } }
        '404': { description: None. }
  /products/{productId}:
    get:
      operationId: getProduct
      parameters: [{ name: productId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${PRODUCT} } } }
    put:
      operationId: replaceProduct
      parameters: [{ name: productId, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: ${PRODUCT} } } }
      responses:
        '200': { description: Replaced., content: { application/json: { schema: ${PRODUCT} } } }
        '404': { description: None. }
`;

const started = specMock('twin-item-paths', SPEC, ['k']);

describe('one item path written with two parameter names (D904)', () => {
  test("the read, the replace and the later twin's check pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('getProductBySlug.') || id === 'replaceProduct.persisted' || id === 'getProduct.documented' || id === 'stateful.model', ['getProductBySlug.found', 'getProductBySlug.not-found', 'replaceProduct.persisted', 'getProduct.documented']);
  }, 120_000);

  test("the later twin's check is not run, with its reason", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    expect(await listCheckIds(target)).toContain('getProduct.documented');
    const outcome = await runCheck('getProduct.documented', target);
    expect(outcome.ok ? outcome.skipped : outcome.report).toContain('getProductBySlug');
  }, 60_000);
});
