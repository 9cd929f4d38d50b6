import { describe, expect, test } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { specMock } from './spec-mock.js';

/**
 * A list answer whose wrapper requires a member it never describes (spec/DECISIONS.md › D896): mailscript.com's
 * domains are listed in `{"id": [...]}` whose schema requires `list`, which no property names. Any value fits the
 * absent schema, so the mock answers one, and the page is valid against the list's own schema.
 */
const DOMAIN = { type: 'object', required: ['id', 'domain'], properties: { id: { type: 'string' }, domain: { type: 'string' } } };
const PAGE = { type: 'object', required: ['data', 'list'], properties: { data: { type: 'array', items: DOMAIN } } };
const SPEC = `openapi: 3.0.3
info: { title: Domains, version: '1' }
paths:
  /domains:
    get:
      operationId: listDomains
      responses:
        '200': { description: All., content: { application/json: { schema: ${JSON.stringify(PAGE)} } } }
    post:
      operationId: addDomain
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [domain], properties: { domain: { type: string } } } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Domain' } } } }
  /domains/{id}:
    get:
      operationId: getDomain
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Domain' } } } }
        '404': { description: None. }
components:
  schemas:
    Domain:
      type: object
      required: [id, domain]
      properties:
        id: { type: string, readOnly: true }
        domain: { type: string }
`;

const validPage = new Ajv2020().compile(PAGE);

const started = specMock('undescribed-required', SPEC, ['k']);

describe('a list wrapper requiring a member it never describes (D896)', () => {
  test('the page holds the member, and is valid against its schema', async () => {
    const made = await fetch(`${started.mock.baseUrl}/domains`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'example.com' }) });
    expect(made.status).toBe(201);
    const page = (await (await fetch(`${started.mock.baseUrl}/domains`)).json()) as { data: unknown[] };
    expect(validPage(page), JSON.stringify(page)).toBe(true);
    expect(page.data).toHaveLength(1);
  });
});
