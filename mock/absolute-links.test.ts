import { describe, expect, test } from 'vitest';
import { documentMock, jsonCaller } from '../test/in-process.js';

// Page links written as objects whose `href` is `format: uri` (ETSI MEC's `LinkType`), which admits absolute URIs
// only: the mock writes them with the origin the request named (D864), never as a path alone.
const link = { type: 'object', required: ['href'], properties: { href: { type: 'string', format: 'uri' } } };
const thing = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };
const listOf = (member: string, items: object) => ({
  '200': {
    description: 'a page',
    content: { 'application/json': { schema: { type: 'object', required: ['_links'], properties: { _links: { type: 'object', required: ['self'], properties: { self: link, [member]: { type: 'array', items } } } } } } },
  },
});

const DOCUMENT = {
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: listOf('things', thing) },
      post: { operationId: 'createThing', requestBody: { content: { 'application/json': { schema: thing } } }, responses: { '201': { description: 'made', content: { 'application/json': { schema: thing } } } } },
    },
    '/things/{id}': { get: { operationId: 'getThing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: thing } } } } } },
  },
};

describe('a page link whose href is format: uri', () => {
  test('is an absolute URL', async () => {
    const mock = await documentMock(DOCUMENT);
    const send = jsonCaller(mock);
    expect(send('POST', '/things', { name: 'a' }).status).toBe(201);
    const page = send('GET', '/things');
    expect([page.status, page.json._links.things.length]).toEqual([200, 1]);
    expect(page.json._links.self.href).toMatch(/^https?:\/\/[^/]+\/api\/things/);
  });
});
