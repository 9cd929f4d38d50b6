import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { memberAt, shapeOfList } from './lists.js';
import { loadModel } from './loader.js';
import type { ListModel } from './model.js';

/**
 * The list model (spec/DECISIONS.md › D45-D49) on small specs written for each shape: spec/fixtures/list-shapes.yaml,
 * spec/fixtures/pet-views.yaml, and inline specs for `x-resource` and the cases a guess must leave alone.
 */
const FIXTURES = join(import.meta.dirname, '..', 'spec', 'fixtures');
const shapes = await loadModel(join(FIXTURES, 'list-shapes.yaml'));
const listOf = (name: string): ListModel => shapes.resources.find((r) => r.name === name)!.list!;
const paths = (list: ListModel) => Object.fromEntries(list.members.map((m) => [m.path.join('.'), m.holds]));

/** A one-collection spec whose list has these query parameters and this 200 schema (OpenAPI 3.1, JSON). */
async function specWith(parameters: unknown[], schema: unknown, extension?: unknown, headers?: unknown) {
  const record = { type: 'object', required: ['id'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: { operationId: 'listThings', parameters, ...(extension === undefined ? {} : { 'x-resource': extension }), responses: { '200': { description: 'ok', ...(headers === undefined ? {} : { headers }), content: { 'application/json': { schema } } } } },
        post: { operationId: 'createThing', requestBody: { required: true, content: { 'application/json': { schema: record } } }, responses: { '201': { description: 'ok', content: { 'application/json': { schema: record } } } } },
      },
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'lists-'));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(document));
  const model = await loadModel(join(dir, 'spec.json'));
  rmSync(dir, { recursive: true, force: true });
  return model.resources[0]!;
}
const things = { type: 'array', items: { $ref: '#/paths/~1things/post/responses/201/content/application~1json/schema' } };
const query = (name: string, schema: unknown, extra: Record<string, unknown> = {}) => ({ name, in: 'query', schema, ...extra });

describe('list shapes', () => {
  test('a member typed object is no list of records, whatever items it carries (D392)', () => {
    const prefs = { type: 'object', items: { type: 'object', additionalProperties: true } };
    expect(shapeOfList({ type: 'object', properties: { name: { type: 'string' }, prefs } })).toBeUndefined();
    expect(shapeOfList({ type: 'object', properties: { prefs, users: { type: 'array', items: { type: 'object' } } } })).toMatchObject({ kind: 'object', itemsProperty: 'users' });
    // Untyped, `items` still says array.
    expect(shapeOfList({ type: 'object', properties: { users: { items: { type: 'object' } } } })).toMatchObject({ kind: 'object', itemsProperty: 'users' });
  });

  test('a wrapper composed with allOf: records in data, links and meta members, page number from 1, Link and X-Total-Count', () => {
    const list = listOf('bookings');
    expect(list.shape).toMatchObject({ kind: 'object', itemsProperty: 'data' });
    expect(list.paging).toEqual({ kind: 'page', parameter: 'page', first: 1 });
    expect(list.limit).toEqual({ parameter: 'per_page', minimum: 1, maximum: 50, default: 10 });
    expect(paths(list)).toEqual({ 'links.self': 'selfLink', 'links.next': 'nextLink', 'links.prev': 'prevLink', 'meta.total': 'total' });
    expect(list.headers).toEqual([{ name: 'link', holds: 'link' }, { name: 'x-total-count', holds: 'total' }]);
    expect(list.filters.map((f) => f.property)).toEqual(['room']);
    expect(shapes.resources.find((r) => r.name === 'bookings')!.idProperty).toBe('id');
  });

  test('a cursor with its next value in meta.next_cursor and has_more', () => {
    const list = listOf('events');
    expect(list.paging).toEqual({ kind: 'cursor', parameter: 'cursor' });
    expect(paths(list)).toEqual({ has_more: 'more', 'meta.next_cursor': 'next' });
  });

  test('a bare array paged by offset, with X-Total-Count and Link', () => {
    const list = listOf('logs');
    expect(list.shape).toEqual({ kind: 'array' });
    expect(list.paging).toEqual({ kind: 'offset', parameter: 'offset' });
    expect(list.headers.map((h) => h.holds)).toEqual(['total', 'link']);
  });

  test('a Spring page numbered from 0 by its minimum; JSON:API page[number] and page[size]', () => {
    expect(listOf('items').paging).toEqual({ kind: 'page', parameter: 'page', first: 0 });
    expect(paths(listOf('items'))).toEqual({ totalElements: 'total', totalPages: 'pages', number: 'page', size: 'size', first: 'isFirst', last: 'isLast' });
    expect(listOf('articles').paging).toEqual({ kind: 'page', parameter: 'page[number]', first: 1 });
    expect(listOf('articles').limit?.parameter).toBe('page[size]');
    expect(paths(listOf('articles'))).toEqual({ 'links.self': 'selfLink', 'links.next': 'nextLink', 'links.prev': 'prevLink', 'meta.totalCount': 'total' });
  });

  test("HAL: the records one level down in _embedded, _links as objects with href, Spring's page object", () => {
    const list = listOf('owners');
    expect(list.shape).toMatchObject({ kind: 'object', itemsProperty: '_embedded', itemsPath: ['_embedded', 'owners'] });
    expect(list.paging).toEqual({ kind: 'page', parameter: 'page', first: 0 });
    expect(paths(list)).toEqual({ '_links.self.href': 'selfLink', '_links.next.href': 'nextLink', '_links.prev.href': 'prevLink', 'page.size': 'size', 'page.totalElements': 'total', 'page.totalPages': 'pages', 'page.number': 'page' });
  });

  test('the paging parameter from cursor-style names; a 0-based page by its default; x-resource names what a guess cannot', async () => {
    for (const name of ['pageToken', 'starting_after', 'continuationToken', 'after']) {
      expect((await specWith([query(name, { type: 'string' })], things)).list!.paging).toEqual({ kind: 'cursor', parameter: name });
    }
    expect((await specWith([query('skip', { type: 'integer' })], things)).list!.paging).toEqual({ kind: 'offset', parameter: 'skip' });
    expect((await specWith([query('page', { type: 'integer', default: 0 })], things)).list!.paging).toEqual({ kind: 'page', parameter: 'page', first: 0 });
    const named = await specWith([query('p', { type: 'integer' }), query('n', { type: 'integer' })], things, { page: 'p', limit: 'n' });
    expect(named.list!.paging).toEqual({ kind: 'page', parameter: 'p', first: 1 });
    expect(named.list!.limit?.parameter).toBe('n');
    const token = await specWith([query('from', { type: 'string' })], things, { cursor: 'from' });
    expect(token.list!.paging).toEqual({ kind: 'cursor', parameter: 'from' });
    // A parameter named like a property filters; it never pages.
    const filtering = await specWith([query('name', { type: 'string' })], things);
    expect(filtering.list!.paging).toBeUndefined();
    expect(filtering.filters.map((f) => f.property)).toEqual(['name']);
  });

  test('membership filters: an array parameter on a scalar property, a scalar one on an array property, both arrays; delimiters by style', async () => {
    const resource = await specWith(
      [query('name', { type: 'array', items: { type: 'string' } }, { style: 'form', explode: false }), query('tag', { type: 'string' }), query('tags', { type: 'array', items: { type: 'string' } }, { style: 'pipeDelimited' })],
      things,
    );
    expect(resource.list!.filters.map((f) => [f.parameter.name, f.property, f.match ?? 'equal', f.parameter.delimiter])).toEqual([
      ['name', 'name', 'in', ','],
      ['tag', 'tags', 'contains', undefined],
      ['tags', 'tags', 'overlap', '|'],
    ]);
    // The stores index equality filters only: membership filters stay out of `resource.filters`.
    expect(resource.filters).toEqual([]);
  });

  test('next members: a cursor, a link under links, an href object, an integer next page; facts read back by memberAt', async () => {
    const cursor = await specWith([query('cursor', { type: 'string' })], { type: 'object', properties: { results: things, next: { type: 'string' }, _links: { type: 'object', properties: { next: { type: 'object', properties: { href: { type: 'string' } } } } } } });
    expect(paths(cursor.list!)).toEqual({ next: 'next', '_links.next.href': 'nextLink' });
    const paged = await specWith([query('page', { type: 'integer' })], { type: 'object', properties: { items: things, next_page: { type: 'integer' }, '@odata.nextLink': { type: 'string' }, hasMore: { type: 'boolean' } } });
    expect(paths(paged.list!)).toEqual({ next_page: 'next', '@odata.nextLink': 'nextLink', hasMore: 'more' });
    expect(memberAt({ _links: { next: { href: '/x' } } }, ['_links', 'next', 'href'])).toBe('/x');
    expect(memberAt({ a: 1 }, ['a', 'b'])).toBeUndefined();
  });

  test('a wrapper picks its records member by name, else the array of objects; a wrapper without an array is no list', () => {
    expect(shapeOfList({ type: 'object', properties: { warnings: { type: 'array', items: { type: 'string' } }, things: { type: 'array', items: { type: 'object', properties: { a: {} } } } } })).toMatchObject({ itemsProperty: 'things' });
    expect(shapeOfList({ allOf: [{ type: 'object', properties: { results: { type: 'array' } } }, { properties: { results: { items: { type: 'object' } } } }] })).toMatchObject({ itemsProperty: 'results' });
    expect(shapeOfList({ type: 'object', properties: { total: { type: 'integer' } } })).toBeUndefined();
  });
});

describe('sub-path views', async () => {
  const views = await loadModel(join(FIXTURES, 'pet-views.yaml'));

  test('findByStatus, findByTags and search are views of /pet, not resources of their own', () => {
    expect(views.resources.map((r) => r.name)).toEqual(['pet']);
    const pet = views.resources[0]!;
    expect(pet.views.map((v) => [v.operation.path, v.view])).toEqual([
      ['/pet/findByStatus', true],
      ['/pet/findByTags', true],
      ['/pet/search', true],
    ]);
    expect(pet.views[2]!.paging).toEqual({ kind: 'offset', parameter: 'offset' });
    expect(pet.views[2]!.filters.map((f) => [f.property, f.parameter.required])).toEqual([['name', true]]);
    expect(views.operations.every((op) => op.resource === pet)).toBe(true);
    expect(views.notes).toEqual([]);
  });

  test('x-resource makes a list elsewhere a view of a resource that has its list, with its own parameters', async () => {
    const record = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
    const array = { type: 'array', items: record };
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/pets': {
          get: { operationId: 'listPets', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 9 } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: array } } } } },
          post: { requestBody: { content: { 'application/json': { schema: record } } }, responses: { '201': { description: 'ok', content: { 'application/json': { schema: record } } } } },
        },
        '/search/pets': {
          get: { operationId: 'searchPets', 'x-resource': { name: 'pets', role: 'list', cursor: 'from', filters: { q: 'name' } }, parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }, { name: 'from', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: array } } } } },
        },
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'views-'));
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(document));
    const model = await loadModel(join(dir, 'spec.json'));
    rmSync(dir, { recursive: true, force: true });
    const pets = model.resources[0]!;
    expect(pets.operations.list?.operationId).toBe('listPets');
    expect(pets.limit).toMatchObject({ parameter: 'limit', maximum: 9 });
    expect(pets.views.map((v) => [v.operation.operationId, v.paging, v.filters.map((f) => [f.parameter.name, f.property])])).toEqual([['searchPets', { kind: 'cursor', parameter: 'from' }, [['q', 'name']]]]);
  });

  test('a sub-path list of other records is no view', async () => {
    const record = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
    const other = { type: 'array', items: { type: 'object', properties: { word: { type: 'string' }, score: { type: 'number' } } } };
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/pets': { post: { requestBody: { content: { 'application/json': { schema: record } } }, responses: { '201': { description: 'ok', content: { 'application/json': { schema: record } } } } } },
        '/pets/suggestions': { get: { operationId: 'suggest', responses: { '200': { description: 'ok', content: { 'application/json': { schema: other } } } } } },
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'views-'));
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(document));
    const model = await loadModel(join(dir, 'spec.json'));
    rmSync(dir, { recursive: true, force: true });
    expect(model.resources.map((r) => [r.name, r.views.length])).toEqual([['pets', 0]]);
    expect(model.operations.find((op) => op.operationId === 'suggest')!.resource).toBeUndefined();
  });
});
