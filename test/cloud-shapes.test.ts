import { describe, expect, test } from 'vitest';
import { specMock } from './spec-mock.js';

/**
 * The shapes of a cloud provider's description (DigitalOcean's among them), written out small so that they are
 * tested without the shared corpus (spec/DECISIONS.md › D336-D339, D355-D357): a create that sends a region's slug
 * where the record holds a region object, tags left out, page links written as `anyOf` alternatives, a list
 * filtered by `tag_name`, an SSH key addressed by id or fingerprint and renamed by a `PUT` that takes only its name,
 * and errors `{id, message, request_id}`.
 */
const SPEC = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Cloud', version: '2' },
  components: {
    securitySchemes: { token: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: { type: 'object', required: ['id', 'message'], properties: { id: { type: 'string', description: 'A short identifier corresponding to the HTTP status code returned.', example: 'not_found' }, message: { type: 'string' }, request_id: { type: 'string', description: 'Optionally, a request ID for support.' } } },
      Region: { type: 'object', required: ['name', 'slug'], properties: { name: { type: 'string', example: 'Zone A' }, slug: { type: 'string', example: 'za1' } } },
      Server: {
        type: 'object',
        required: ['id', 'name', 'region', 'region_slug', 'tags'],
        properties: {
          id: { type: 'integer', readOnly: true, example: 7 },
          name: { type: 'string', example: 'web' },
          region: { allOf: [{ $ref: '#/components/schemas/Region' }], readOnly: true },
          region_slug: { type: 'string', readOnly: true, example: 'za1' },
          tags: { type: 'array', items: { type: 'string' }, example: ['base', 'prod'] },
        },
      },
      ServerCreate: {
        type: 'object',
        required: ['name', 'region'],
        properties: { name: { type: 'string' }, region: { type: 'string', description: 'The slug identifier for the region.', example: 'za1' }, tags: { type: 'array', nullable: true, items: { type: 'string' } } },
      },
      ServersCreate: { type: 'object', required: ['names', 'region'], properties: { names: { type: 'array', items: { type: 'string' } }, region: { type: 'string', description: 'The slug identifier for the region.' } } },
      Pages: {
        type: 'object',
        properties: {
          pages: {
            anyOf: [
              { type: 'object', properties: { first: { type: 'string', example: 'https://api.example.com/v2/servers?page=1' }, prev: { type: 'string', example: 'https://api.example.com/v2/servers?page=1' } } },
              { type: 'object', properties: { last: { type: 'string', example: 'https://api.example.com/v2/servers?page=2' }, next: { type: 'string', example: 'https://api.example.com/v2/servers?page=2' } } },
              {},
            ],
          },
        },
      },
      KeyId: { type: 'integer', readOnly: true, description: 'A unique identification number for this key.', example: 512189 },
      KeyFingerprint: { type: 'string', readOnly: true, description: 'A unique identifier that differentiates this key from other keys.', example: '3b:16:bf:e4:8b:00:8b:b8:59:8c:a9:d3:f0:19:45:fa' },
      Key: {
        type: 'object',
        required: ['public_key', 'name'],
        properties: { id: { $ref: '#/components/schemas/KeyId' }, fingerprint: { $ref: '#/components/schemas/KeyFingerprint' }, public_key: { type: 'string', example: 'ssh-rsa AAAAexample' }, name: { type: 'string', example: 'laptop' } },
      },
    },
    responses: { missing: { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
  },
  security: [{ token: [] }],
  paths: {
    '/v2/servers': {
      get: {
        operationId: 'servers_list',
        parameters: [
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 20 } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'tag_name', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The servers',
            content: { 'application/json': { schema: { allOf: [{ type: 'object', properties: { servers: { type: 'array', items: { $ref: '#/components/schemas/Server' } } } }, { type: 'object', properties: { links: { $ref: '#/components/schemas/Pages' } } }, { type: 'object', required: ['meta'], properties: { meta: { type: 'object', required: ['total'], properties: { total: { type: 'integer' } } } } }] } } },
          },
        },
      },
      post: {
        operationId: 'servers_create',
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/ServerCreate' }, { $ref: '#/components/schemas/ServersCreate' }] } } } },
        responses: { '202': { description: 'Accepted', content: { 'application/json': { schema: { type: 'object', properties: { server: { $ref: '#/components/schemas/Server' } } } } } } },
      },
    },
    '/v2/servers/{server_id}': {
      parameters: [{ name: 'server_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: 'servers_get', responses: { '200': { description: 'The server', content: { 'application/json': { schema: { type: 'object', properties: { server: { $ref: '#/components/schemas/Server' } } } } } }, '404': { $ref: '#/components/responses/missing' } } },
    },
    '/v2/keys': {
      get: { operationId: 'keys_list', responses: { '200': { description: 'The keys', content: { 'application/json': { schema: { type: 'object', properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/Key' } } } } } } } } },
      post: {
        operationId: 'keys_create',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Key' } } } },
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: { type: 'object', properties: { key: { $ref: '#/components/schemas/Key' } } } } } } },
      },
    },
    '/v2/keys/{key_identifier}': {
      parameters: [{ name: 'key_identifier', in: 'path', required: true, description: 'Either the ID or the fingerprint of a key.', schema: { anyOf: [{ $ref: '#/components/schemas/KeyId' }, { $ref: '#/components/schemas/KeyFingerprint' }] } }],
      get: { operationId: 'keys_get', responses: { '200': { description: 'The key', content: { 'application/json': { schema: { type: 'object', properties: { key: { $ref: '#/components/schemas/Key' } } } } } }, '404': { $ref: '#/components/responses/missing' } } },
      put: {
        operationId: 'keys_update',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } },
        responses: { '200': { description: 'The key', content: { 'application/json': { schema: { type: 'object', properties: { key: { $ref: '#/components/schemas/Key' } } } } } }, '404': { $ref: '#/components/responses/missing' } },
      },
    },
  },
});

const KEY = 'cloud-shapes-key-0123456789';
const started = specMock('cloud-shapes', SPEC, [KEY]);

/** A JSON request to the started mock with the test's token; resolves to the status and the parsed body. */
async function send(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${started.mock.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

describe('a cloud description: slugs for objects, page links as alternatives, keys by fingerprint', () => {
  test('a region sent as its slug is the answer region\'s slug and its region_slug (D337); tags left out are none (D356)', async () => {
    const plain = await send('POST', '/v2/servers', { name: 'web-1', region: 'zb2' });
    expect(plain.status).toBe(202);
    expect([plain.json.server.region.slug, plain.json.server.region_slug, plain.json.server.tags]).toEqual(['zb2', 'zb2', []]);
    const tagged = await send('POST', '/v2/servers', { name: 'web-2', region: 'zc3', tags: ['frontend'] });
    expect([tagged.json.server.region.slug, tagged.json.server.tags]).toEqual(['zc3', ['frontend']]);
    expect((await send('GET', `/v2/servers/${String(tagged.json.server.id)}`)).json.server.region.slug).toBe('zc3');
    // A null the body allows where the record holds a list is no value for it: no tags.
    const nulled = await send('POST', '/v2/servers', { name: 'web-3', region: 'zb2', tags: null });
    expect([nulled.status, nulled.json.server.tags]).toEqual([202, []]);
  });

  test('page links inside anyOf alternatives are filled and absolute at the mock (D336); tag_name filters tags (D339)', async () => {
    const all = await send('GET', '/v2/servers?per_page=200');
    const total = all.json.meta.total as number;
    expect(total).toBeGreaterThanOrEqual(3);
    const first = await send('GET', '/v2/servers?per_page=1&page=1');
    expect(first.json.servers).toHaveLength(1);
    expect(first.json.links.pages.next).toBe(`${started.mock.baseUrl}/v2/servers?per_page=1&page=2`);
    expect(first.json.links.pages.last).toBe(`${started.mock.baseUrl}/v2/servers?per_page=1&page=${String(total)}`);
    const last = await send('GET', `/v2/servers?per_page=1&page=${String(total)}`);
    expect(last.json.links.pages.next).toBeUndefined();
    const tagged = await send('GET', '/v2/servers?tag_name=frontend');
    expect(tagged.json.servers.map((one: { name: string }) => one.name)).toEqual(['web-2']);
  });

  test('an error carries a fresh request id (D357) and the id its description derives from the status (D358)', async () => {
    const missing = await send('GET', '/v2/servers/999999');
    const again = await send('GET', '/v2/servers/999999');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.json).sort()).toEqual(['id', 'message', 'request_id']);
    expect(missing.json.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(again.json.request_id).not.toBe(missing.json.request_id);
    expect(missing.json.id).toBe('not_found');
  });

  test('keys get fingerprints of their own, are read by fingerprint (D338), and a PUT of the name keeps the public key (D355)', async () => {
    const one = (await send('POST', '/v2/keys', { name: 'laptop', public_key: 'ssh-ed25519 AAAAone' })).json.key;
    const two = (await send('POST', '/v2/keys', { name: 'desktop', public_key: 'ssh-ed25519 AAAAtwo' })).json.key;
    expect(one.fingerprint).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){15}$/);
    expect(two.fingerprint).not.toBe(one.fingerprint);
    const byFingerprint = await send('GET', `/v2/keys/${encodeURIComponent(two.fingerprint as string)}`);
    expect([byFingerprint.status, byFingerprint.json.key.id, byFingerprint.json.key.name]).toEqual([200, two.id, 'desktop']);
    expect((await send('GET', '/v2/keys/00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff')).status).toBe(404);
    const renamed = await send('PUT', `/v2/keys/${String(one.id)}`, { name: 'laptop-2' });
    expect([renamed.status, renamed.json.key.name, renamed.json.key.public_key, renamed.json.key.fingerprint]).toEqual([200, 'laptop-2', 'ssh-ed25519 AAAAone', one.fingerprint]);
  });
});
