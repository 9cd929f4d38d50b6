import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memberAt, nextPageValue } from '../model/lists.js';
import { loadModel } from '../model/loader.js';
import { startRedis, type TestRedis } from '../test/redis/redis-server.js';
import { createMock, type Mock, type RedisMock } from './index.js';
import { decodeCursor, encodeCursor, setQuery } from './list-handler.js';
import type { MockRequest } from './index.js';

/**
 * Lists as real APIs shape them (spec/DECISIONS.md › D45-D49), on spec/fixtures/list-shapes.yaml (a wrapper
 * composed with `allOf` paged by page number with `Link` and `X-Total-Count`, a cursor in `meta.next_cursor`, a
 * bare array paged by offset, a Spring page numbered from 0, JSON:API's `page[number]`) and
 * spec/fixtures/pet-views.yaml (the classic Petstore's sub-path views), against the in-memory and the Redis store.
 */
const FIXTURES = join(import.meta.dirname, '..', 'spec', 'fixtures');
const shapes = await loadModel(join(FIXTURES, 'list-shapes.yaml'));
const views = await loadModel(join(FIXTURES, 'pet-views.yaml'));

type Answer = { status: number; headers: Record<string, string>; json: any };
type Handle = (request: MockRequest) => Answer | Promise<Answer>;

let redis: TestRedis;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

const open: (Mock | RedisMock)[] = [];
afterAll(async () => {
  for (const mock of open) await mock.dispose();
});

const stores: [string, (model: typeof shapes) => Promise<Handle>][] = [
  [
    'memory',
    async (model) => {
      const mock = await createMock({ model, apiKeys: [], pets: [] });
      open.push(mock);
      return wrap(mock.handle);
    },
  ],
  [
    'redis',
    async (model) => {
      const mock = await createMock({ model, apiKeys: [], pets: [], store: { url: redis.url, prefix: `lists-${++prefixes}` } });
      open.push(mock);
      return wrap(mock.handle);
    },
  ],
];

function wrap(handle: (request: MockRequest) => unknown): Handle {
  return async (request) => {
    const response = (await handle(request)) as { status: number; headers: Record<string, string>; body: string };
    return { status: response.status, headers: response.headers, json: response.body === '' ? undefined : JSON.parse(response.body) };
  };
}

/** A GET whose 2xx answer must satisfy its own response schema (the mock never answers what its spec forbids). */
async function get(handle: Handle, url: string): Promise<Answer> {
  const answer = await handle({ method: 'GET', url, headers: { host: 'mock.test:4010' } });
  const path = url.split('?')[0]!;
  const model = path.startsWith('/api/v3') ? views : shapes;
  const op = model.operations.find((candidate) => candidate.method === 'GET' && candidate.pattern.test(path.slice(model.basePath.length)));
  const response = op?.responses.find((r) => r.status === String(answer.status));
  if (answer.status < 300 && response?.validate !== undefined && !response.validate(answer.json)) throw new Error(`${url}: the answer breaks its schema: ${response.validate.errors()}`);
  return answer;
}
const post = (handle: Handle, url: string, body: unknown, type = 'application/json') => handle({ method: 'POST', url, headers: { 'content-type': type }, body: Buffer.from(JSON.stringify(body)) });

/** The `rel="next"` target of a `Link` header, if any (RFC 8288). */
function nextOf(link: string | undefined): string | undefined {
  return /<([^>]*)>;\s*rel="next"/.exec(link ?? '')?.[1];
}

describe.each(stores)('lists in the shapes real APIs use (%s store)', (_name, make) => {
  let handle: Handle;
  beforeEach(async () => {
    handle = await make(shapes);
  });

  it('a wrapper composed with allOf: created bookings appear in it; page 2 is the next records; the links, Link and X-Total-Count lead through every page once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push((await post(handle, '/api/bookings', { room: i % 2 === 0 ? 'even' : 'odd', nights: 1 + (i % 3) })).json.id);
    const newestFirst = [...ids].reverse();
    const first = await get(handle, '/api/bookings');
    expect(first.status).toBe(200);
    expect(first.json.data.map((b: { id: number }) => b.id)).toEqual(newestFirst.slice(0, 10));
    expect(first.json.meta).toEqual({ total: 25 });
    expect(first.json.links).toEqual({ self: '/api/bookings', next: 'http://mock.test:4010/api/bookings?page=2', prev: null });
    expect(first.headers['x-total-count']).toBe('25');
    expect(first.headers['link']).toBe('</api/bookings?page=2>; rel="next", </api/bookings?page=1>; rel="first", </api/bookings?page=3>; rel="last"');
    const second = await get(handle, '/api/bookings?page=2');
    expect(second.json.data.map((b: { id: number }) => b.id)).toEqual(newestFirst.slice(10, 20));
    expect(second.json.links.prev).toBe('http://mock.test:4010/api/bookings?page=1');
    // Following `links.next` and following the `Link` header both walk the whole list once.
    const local = (link: string | null): string | null => link?.replace('http://mock.test:4010', '') ?? null;
    for (const follow of [(a: Answer) => local(a.json.links.next as string | null), (a: Answer) => nextOf(a.headers['link']) ?? null]) {
      const seen: number[] = [];
      let url: string | null = '/api/bookings?per_page=7';
      let pages = 0;
      while (url !== null) {
        const page = await get(handle, url);
        seen.push(...page.json.data.map((b: { id: number }) => b.id));
        url = follow(page);
        pages++;
      }
      expect(seen).toEqual(newestFirst);
      expect(pages).toBe(4);
    }
    const last = await get(handle, '/api/bookings?page=3');
    expect(last.json.data).toHaveLength(5);
    expect(last.json.links.next).toBeNull();
    expect(last.headers['link']).not.toContain('rel="next"');
    expect((await get(handle, '/api/bookings?page=9')).json).toMatchObject({ data: [], meta: { total: 25 } });
    expect((await get(handle, '/api/bookings?page=0')).status).toBe(400);
    // A filter with pages: the pages partition the filtered list, the total counts the matches.
    const odd = await get(handle, '/api/bookings?room=odd&per_page=5&page=2');
    expect(odd.json.data.map((b: { id: number }) => b.id)).toEqual(newestFirst.filter((id) => id % 2 === 0).slice(5, 10));
    expect(odd.json.meta.total).toBe(12);
    expect(odd.json.links.next).toBe('http://mock.test:4010/api/bookings?room=odd&per_page=5&page=3');
  });

  it('a cursor in meta.next_cursor: pages partition the list, a filter keeps its cursor, records created meanwhile do not shift it, an unknown cursor is a 400', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await post(handle, '/api/events', { kind: i % 3 === 0 ? 'stop' : 'start' })).json.id);
    const newestFirst = [...ids].reverse();
    for (const [query, expected] of [
      ['', newestFirst],
      ['kind=start&', newestFirst.filter((_, i) => (11 - i) % 3 !== 0)],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Answer = await get(handle, `/api/events?${query}limit=5${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(page.status).toBe(200);
        seen.push(...page.json.items.map((e: { id: string }) => e.id));
        expect(page.json.has_more).toBe(page.json.meta.next_cursor !== null);
        expect(typeof page.json.meta.request_id).toBe('string');
        cursor = page.json.meta.next_cursor;
        pages++;
      } while (cursor !== null && pages < 10);
      expect(seen).toEqual(expected);
    }
    const first = await get(handle, '/api/events?limit=5');
    expect(first.json.items).toHaveLength(5);
    await post(handle, '/api/events', { kind: 'start' });
    const second = await get(handle, `/api/events?limit=5&cursor=${first.json.meta.next_cursor}`);
    expect(second.json.items.map((e: { id: string }) => e.id)).toEqual(newestFirst.slice(5, 10));
    expect((await get(handle, '/api/events?cursor=not-a-cursor')).status).toBe(400);
    expect((await get(handle, `/api/events?cursor=${Buffer.from('after:x').toString('base64url')}`)).status).toBe(400);
    expect((await get(handle, '/api/events?cursor=')).json.items).toHaveLength(5);
  });

  it('a bare array paged by offset: X-Total-Count and Link; every page size partitions the list', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await post(handle, '/api/logs', { line: `line ${i}` })).json.id);
    const newestFirst = [...ids].reverse();
    const first = await get(handle, '/api/logs');
    expect(first.json.map((l: { id: number }) => l.id)).toEqual(newestFirst.slice(0, 3));
    expect(first.headers['x-total-count']).toBe('10');
    expect(nextOf(first.headers['link'])).toBe('/api/logs?offset=3');
    for (let size = 1; size <= 11; size++) {
      const seen: number[] = [];
      for (let offset = 0; offset < 12; offset += size) seen.push(...(await get(handle, `/api/logs?limit=${size}&offset=${offset}`)).json.map((l: { id: number }) => l.id));
      expect(seen).toEqual(newestFirst);
    }
    expect((await get(handle, '/api/logs?offset=9')).headers['link']).toBe('</api/logs?offset=6>; rel="prev", </api/logs?offset=0>; rel="first", </api/logs?offset=9>; rel="last"');
    expect((await get(handle, '/api/logs?offset=-1')).status).toBe(400);
  });

  it('a Spring page numbered from 0 (minimum 0): number, size, totalElements, totalPages', async () => {
    for (let i = 0; i < 9; i++) await post(handle, '/api/items', { tag: `t${i}` });
    const first = await get(handle, '/api/items');
    expect(first.json).toMatchObject({ number: 0, size: 4, totalElements: 9, totalPages: 3, first: true, last: false });
    expect(first.json.content.map((item: { tag: string }) => item.tag)).toEqual(['t8', 't7', 't6', 't5']);
    const last = await get(handle, '/api/items?page=2');
    expect(last.json).toMatchObject({ number: 2, content: [{ tag: 't0' }], first: false, last: true });
  });

  it('HAL: records in _embedded, links as href objects (left out past the end), the page object', async () => {
    for (let i = 0; i < 5; i++) await post(handle, '/api/owners', { name: `o${i}` });
    const first = await get(handle, '/api/owners');
    expect(first.json._embedded.owners.map((o: { name: string }) => o.name)).toEqual(['o4', 'o3']);
    expect(first.json._links).toEqual({ self: { href: '/api/owners' }, next: { href: '/api/owners?page=1' } });
    expect(first.json.page).toEqual({ size: 2, totalElements: 5, totalPages: 3, number: 0 });
    const seen: string[] = [];
    let url: string | undefined = '/api/owners';
    while (url !== undefined) {
      const page: Answer = await get(handle, url);
      seen.push(...page.json._embedded.owners.map((o: { name: string }) => o.name));
      url = page.json._links.next?.href;
    }
    expect(seen).toEqual(['o4', 'o3', 'o2', 'o1', 'o0']);
  });

  it('nextPageValue reads the next page from each answer as the spec declares it (body member, link, Link header)', async () => {
    for (let i = 0; i < 5; i++) {
      await post(handle, '/api/bookings', { room: 'r' });
      await post(handle, '/api/events', { kind: 'start' });
      await post(handle, '/api/logs', { line: 'l' });
      await post(handle, '/api/owners', { name: 'o' });
    }
    const cases: [string, string, string][] = [
      ['bookings', '/api/bookings?per_page=2', 'page'],
      ['events', '/api/events?limit=2', 'cursor'],
      ['logs', '/api/logs?limit=2', 'offset'],
      ['owners', '/api/owners?size=2', 'page'],
    ];
    for (const [name, start, parameter] of cases) {
      const list = shapes.resources.find((r) => r.name === name)!.list!;
      const ids: unknown[] = [];
      let url: string | undefined = start;
      while (url !== undefined) {
        const page: Answer = await get(handle, url);
        const body = page.json;
        const records = (list.shape.kind === 'object' ? memberAt(body, list.shape.itemsPath) : body) as { id: unknown }[];
        ids.push(...records.map((record) => record.id));
        const next = nextPageValue(list, body, page.headers);
        url = next === undefined ? undefined : `${start}&${encodeURIComponent(parameter)}=${encodeURIComponent(next)}`;
      }
      expect(new Set(ids).size).toBe(5);
      expect(ids).toHaveLength(5);
    }
  });

  it("JSON:API's page[number] and page[size]: links.next names the parameter as sent", async () => {
    for (let i = 0; i < 5; i++) await post(handle, '/api/articles', { title: `a${i}` }, 'application/vnd.api+json');
    const seen: string[] = [];
    let url: string | null = '/api/articles';
    while (url !== null) {
      const page: Answer = await get(handle, url);
      seen.push(...page.json.data.map((a: { title: string }) => a.title));
      url = page.json.links.next;
    }
    expect(seen).toEqual(['a4', 'a3', 'a2', 'a1', 'a0']);
    expect((await get(handle, '/api/articles')).json.links.next).toBe('/api/articles?page%5Bnumber%5D=2');
    expect((await get(handle, '/api/articles')).json.meta).toEqual({ totalCount: 5 });
  });
});

describe.each(stores)('sub-path views of a collection (%s store)', (_name, make) => {
  let handle: Handle;
  beforeEach(async () => {
    handle = await make(views);
  });

  const names = (answer: Answer): string[] => (Array.isArray(answer.json) ? answer.json : answer.json.results).map((pet: { name: string }) => pet.name);

  it('findByStatus and findByTags list the records created at /pet, filtered by membership; a required parameter is honoured', async () => {
    await post(handle, '/api/v3/pet', { name: 'rex', status: 'available', tags: [{ id: 1, name: 'dog' }, { id: 2, name: 'big' }] });
    await post(handle, '/api/v3/pet', { name: 'tom', status: 'sold', tags: [{ id: 3, name: 'cat' }] });
    await post(handle, '/api/v3/pet', { name: 'bob', status: 'pending', tags: [] });
    await post(handle, '/api/v3/pet', { name: 'kit', status: 'available' });
    expect(names(await get(handle, '/api/v3/pet/findByStatus?status=available'))).toEqual(['kit', 'rex']);
    expect(names(await get(handle, '/api/v3/pet/findByStatus?status=available,sold'))).toEqual(['kit', 'tom', 'rex']);
    expect(names(await get(handle, '/api/v3/pet/findByStatus?status=pending'))).toEqual(['bob']);
    expect((await get(handle, '/api/v3/pet/findByStatus?status=lost')).status).toBe(400);
    expect((await get(handle, '/api/v3/pet/findByStatus')).status).toBe(400);
    expect(names(await get(handle, '/api/v3/pet/findByTags?tags=cat'))).toEqual(['tom']);
    expect(names(await get(handle, '/api/v3/pet/findByTags?tags=big&tags=cat'))).toEqual(['tom', 'rex']);
    expect(names(await get(handle, '/api/v3/pet/findByTags?tags=fish'))).toEqual([]);
    expect((await get(handle, '/api/v3/pet/findByTags')).status).toBe(400);
  });

  it('a search view in a wrapper: its required filter, its offset pages and its count', async () => {
    for (const name of ['a', 'b', 'a', 'a', 'c', 'a', 'a']) await post(handle, '/api/v3/pet', { name });
    expect((await get(handle, '/api/v3/pet/search')).status).toBe(400);
    const first = await get(handle, '/api/v3/pet/search?name=a');
    expect(first.json.count).toBe(5);
    expect(first.json.results).toHaveLength(2);
    expect(first.json.next).toBe('/api/v3/pet/search?name=a&offset=2');
    const ids: number[] = [];
    let url: string | null = '/api/v3/pet/search?name=a';
    while (url !== null) {
      const page: Answer = await get(handle, url);
      ids.push(...page.json.results.map((pet: { id: number }) => pet.id));
      url = page.json.next;
    }
    expect(ids).toEqual([7, 6, 4, 3, 1]);
  });
});

describe('the model of a view and of pages', () => {
  it('views belong to the resource of their collection; an array parameter knows its delimiter', () => {
    const pet = views.resources.find((r) => r.name === 'pet')!;
    expect(views.resources).toHaveLength(1);
    expect(pet.list).toBeUndefined();
    expect(pet.views.map((v) => v.operation.operationId)).toEqual(['findPetsByStatus', 'findPetsByTags', 'searchPets']);
    expect(views.operations.filter((op) => op.resource === pet).map((op) => op.role)).toEqual(['create', undefined, undefined, undefined, 'read']);
    expect(pet.views[0]!.filters.map((f) => [f.property, f.match, f.parameter.delimiter])).toEqual([['status', 'in', ',']]);
    expect(pet.views[1]!.filters.map((f) => [f.property, f.match, f.parameter.delimiter])).toEqual([['tags', 'overlap', undefined]]);
  });

  it('cursors are opaque and checked; links keep the other parameters', () => {
    expect(decodeCursor(encodeCursor('42'))).toBe('42');
    expect(decodeCursor('42')).toBeUndefined();
    expect(setQuery('/a?x=1&page=2&y=%20', 'page', '3')).toBe('/a?x=1&y=%20&page=3');
    expect(setQuery('/a?page=2', 'page', undefined)).toBe('/a');
  });
});
