import { expect } from 'vitest';
import { expectPartition, expectStatus, object, records, type WildClient, type WildProbe } from './wild-client.js';

// Probes of the specs whose single-record answers wrap the record in an envelope (spec/wild/README.md, D73):
// `{"droplet": {...}}` beside `links`, and JSON:API's `{"data": {...}}` with a request envelope too.

const droplet = (name: string) => ({ name, region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64', tags: ['web'] });

/** The record an envelope holds: `answer.json[member]`, which must be an object. */
function inside(answer: Parameters<typeof object>[0], member: string): Record<string, unknown> {
  const held = object(answer)[member];
  expect(held, `the answer wraps the record in "${member}"`).toBeTypeOf('object');
  return held as Record<string, unknown>;
}

/** The ids on every page of `path` by `page` and a page-size parameter, until a short page. */
async function pageIds(call: WildClient['call'], path: string, size: string, member: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; page <= 50; page++) {
    const ids = records(await call('GET', `${path}${path.includes('?') ? '&' : '?'}${page === 1 ? '' : `page=${page}&`}${size}=${limit}`), member).map((record) => String(record['id']));
    pages.push(ids);
    if (ids.length < limit) break;
  }
  return pages;
}

/** droplets-envelope-3.0.yaml: the DigitalOcean shape. */
export const droplets: Record<string, WildProbe> = {
  'a created droplet comes back in {droplet, links} (202), is read in {droplet} and listed in {droplets, meta.total}': async ({ call }) => {
    const answer = await call('POST', '/v2/droplets', { json: droplet('web-1') });
    expectStatus(answer, 202);
    const created = inside(answer, 'droplet');
    expect(created).toMatchObject({ name: 'web-1', region: 'nyc3', image: 'ubuntu-24-04-x64', tags: ['web'] });
    expect(object(answer)['links']).toBeTypeOf('object');
    const read = await call('GET', `/v2/droplets/${String(created['id'])}`);
    expectStatus(read, 200);
    expect(inside(read, 'droplet')).toEqual(created);
    const list = await call('GET', '/v2/droplets?per_page=200');
    expect(records(list, 'droplets').map((record) => record['id'])).toContain(created['id']);
    expect((object(list)['meta'] as Record<string, unknown>)['total']).toBe(records(list, 'droplets').length);
  },
  'pages of per_page droplets partition the list; a rename (PATCH) keeps the rest; a delete (204) leaves a 404': async ({ call }) => {
    for (const name of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']) expectStatus(await call('POST', '/v2/droplets', { json: droplet(name) }), 202);
    const all = records(await call('GET', '/v2/droplets?per_page=200'), 'droplets').map((record) => String(record['id']));
    expectPartition(await pageIds(call, '/v2/droplets', 'per_page', 'droplets', 2), all);
    const id = all[0]!;
    const renamed = await call('PATCH', `/v2/droplets/${id}`, { json: { name: 'renamed' } });
    expectStatus(renamed, 200);
    expect(inside(renamed, 'droplet')).toMatchObject({ id: Number(id), name: 'renamed', region: 'nyc3' });
    expectStatus(await call('DELETE', `/v2/droplets/${id}`), 204);
    const gone = await call('GET', `/v2/droplets/${id}`);
    expectStatus(gone, 404);
    expect(object(gone)).toMatchObject({ id: expect.any(String), message: expect.stringContaining(id) });
  },
  'bad input: a create without region is the documented 422 {id, message}, and nothing is stored': async ({ call }) => {
    const before = records(await call('GET', '/v2/droplets?per_page=200'), 'droplets').length;
    const refused = await call('POST', '/v2/droplets', { json: { name: 'web-2', size: 's-1vcpu-1gb', image: 'ubuntu' } });
    expectStatus(refused, 422);
    expect(String(object(refused)['message'])).toContain('region');
    expect(records(await call('GET', '/v2/droplets?per_page=200'), 'droplets')).toHaveLength(before);
  },
};

const JSON_API = 'application/vnd.api+json';
const article = (title: string, body?: string) => ({ data: { type: 'articles', attributes: { title, ...(body === undefined ? {} : { body }) } } });

/** articles-jsonapi-3.1.yaml: JSON:API documents. */
export const articles: Record<string, WildProbe> = {
  'a create sends {data: {type, attributes}} and gets 201 {data: {type, id, attributes}} in application/vnd.api+json; read and list agree': async ({ call }) => {
    const answer = await call('POST', '/articles', { json: article('JSON:API paints my bikeshed!', 'Hello'), headers: { 'content-type': JSON_API, accept: JSON_API } });
    expectStatus(answer, 201);
    expect(answer.type).toBe(JSON_API);
    const created = inside(answer, 'data');
    expect(created).toMatchObject({ type: 'articles', id: expect.any(String), attributes: { title: 'JSON:API paints my bikeshed!', body: 'Hello' } });
    const read = await call('GET', `/articles/${String(created['id'])}`, { headers: { accept: JSON_API } });
    expect(inside(read, 'data')).toEqual(created);
    // A client asking for plain JSON gets the JSON the spec documents.
    expectStatus(await call('GET', `/articles/${String(created['id'])}`, { headers: { accept: 'application/json' } }), 200);
    expect(records(await call('GET', '/articles?page[size]=50'), 'data').map((record) => record['id'])).toContain(created['id']);
  },
  'a PATCH of one attribute keeps the others; pages by page[number] and page[size] partition the list': async ({ call }) => {
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three']) ids.push(String(inside(await call('POST', '/articles', { json: article(title, `${title} body`), headers: { 'content-type': JSON_API } }), 'data')['id']));
    const patched = await call('PATCH', `/articles/${ids[0]!}`, { json: { data: { type: 'articles', attributes: { title: 'Uno' } } }, headers: { 'content-type': JSON_API } });
    expectStatus(patched, 200);
    expect(inside(patched, 'data')['attributes']).toEqual({ title: 'Uno', body: 'One body' });
    const all = records(await call('GET', '/articles?page[size]=50'), 'data').map((record) => String(record['id']));
    const pages: string[][] = [];
    for (let page = 1; page <= 10; page++) {
      const one = records(await call('GET', `/articles?page[number]=${page}&page[size]=2`), 'data').map((record) => String(record['id']));
      pages.push(one);
      if (one.length < 2) break;
    }
    expectPartition(pages, all);
  },
  'bad input: a create without a title is a 422 {errors: [{status: "422", detail}]}; an unknown id a 404': async ({ call }) => {
    const refused = await call('POST', '/articles', { json: { data: { type: 'articles', attributes: {} } }, headers: { 'content-type': JSON_API } });
    expectStatus(refused, 422);
    const [first] = object(refused)['errors'] as Record<string, unknown>[];
    expect(first).toMatchObject({ status: '422', detail: expect.stringContaining('title') });
    expectStatus(await call('GET', '/articles/no-such-article'), 404);
    expectStatus(await call('DELETE', '/articles/no-such-article'), 404);
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** cloud-extras-3.0.yaml: five corners of the DigitalOcean shape (D78). */
export const cloudExtras: Record<string, WildProbe> = {
  'a created certificate gets a uuid id the delete (format: uuid) accepts; the list without `name` (default "") shows it': async ({ call }) => {
    const answer = await call('POST', '/v2/certificates', { json: { name: 'web-cert-01', type: 'lets_encrypt', dns_names: ['www.example.com'] } });
    expectStatus(answer, 201);
    const created = inside(answer, 'certificate');
    expect(created).toMatchObject({ name: 'web-cert-01', type: 'lets_encrypt', dns_names: ['www.example.com'] });
    expect(String(created['id'])).toMatch(UUID);
    expect(records(await call('GET', '/v2/certificates'), 'certificates').map((record) => record['id'])).toContain(created['id']);
    expect(records(await call('GET', '/v2/certificates?name=web-cert-01'), 'certificates').map((record) => record['id'])).toEqual([created['id']]);
    expectStatus(await call('DELETE', `/v2/certificates/${String(created['id'])}`), 204);
    expectStatus(await call('GET', `/v2/certificates/${String(created['id'])}`), 404);
  },
  'pages of per_page certificates partition the list': async ({ call }) => {
    for (const name of ['c-1', 'c-2', 'c-3', 'c-4', 'c-5']) expectStatus(await call('POST', '/v2/certificates', { json: { name, type: 'custom' } }), 201);
    const all = records(await call('GET', '/v2/certificates?per_page=200'), 'certificates').map((record) => String(record['id']));
    expect(all.length).toBeGreaterThanOrEqual(5);
    expectPartition(await pageIds(call, '/v2/certificates', 'per_page', 'certificates', 2), all);
  },
  'a registry answers with a date-time created_at, never a counter': async ({ call }) => {
    const answer = await call('POST', '/v2/registry', { json: { name: 'example', subscription_tier_slug: 'starter' } });
    expectStatus(answer, 201);
    expect(Number.isNaN(Date.parse(String(inside(answer, 'registry')['created_at'])))).toBe(false);
  },
  'a cluster lint runs again on each POST (202, a new run_id); the GET shows the latest; an absent cluster is a 404': async ({ call }) => {
    const cluster = inside(await call('POST', '/v2/kubernetes/clusters', { json: { name: 'prod-1', region: 'nyc1', version: '1.31' } }), 'kubernetes_cluster');
    const lint = `/v2/kubernetes/clusters/${String(cluster['id'])}/clusterlint`;
    expectStatus(await call('GET', lint), 404);
    const first = await call('POST', lint, { json: { include_groups: ['basic'] } });
    expectStatus(first, 202);
    const second = await call('POST', lint, { json: {} });
    expectStatus(second, 202);
    expect(object(second)['run_id']).not.toEqual(object(first)['run_id']);
    expect(object(await call('GET', lint))['run_id']).toEqual(object(second)['run_id']);
    expectStatus(await call('POST', '/v2/kubernetes/clusters/00000000-0000-4000-8000-000000000000/clusterlint', { json: {} }), 404);
  },
  'bad input: the retired key endpoint is a 410 {id: gone}; a cluster without region is the documented 422; no key is a 401': async ({ call }) => {
    const retired = await call('POST', '/v2/gen-ai/models/api_keys', { json: { name: 'my-key' } });
    expectStatus(retired, 410);
    expect(object(retired)).toMatchObject({ id: 'gone' });
    expectStatus(await call('POST', '/v2/kubernetes/clusters', { json: { name: 'prod-2', version: '1.31' } }), 422);
    expectStatus(await call('GET', '/v2/certificates', { auth: false }), 401);
  },
  'the presigned upload is answered at its literal path too': async ({ call }) => {
    expectStatus(await call('PUT', '/%3Cupload_url%3E', { bytes: { contentType: 'application/octet-stream', data: new TextEncoder().encode('{"a":1}\n') } }), 200);
  },
};
