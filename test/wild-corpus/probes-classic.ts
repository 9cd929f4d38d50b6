import { expect } from 'vitest';
import { expectPartition, expectStatus, expectSuccess, object, records, type WildProbe } from './wild-client.js';

// Probes of the specs in the classic petstore shapes (spec/wild/README.md), each written from the spec's own
// descriptions: what a front-end developer tries first against a mock of it.

const plant = (id: number, name: string, status: string, tags: string[] = []) => ({ id, name, photoUrls: [], tags: tags.map((tag) => ({ name: tag })), status });
const ids = (list: Record<string, unknown>[]) => list.map((record) => String(record['id']));

/** nursery-3.0.yaml: the Swagger Petstore 3 shape. */
export const nursery: Record<string, WildProbe> = {
  'addPlant keeps the id the client sends (example 10), getPlantById reads it, the same id again is a 409': async ({ call }) => {
    const created = await call('POST', '/plant', { json: plant(9001, 'maidenhair', 'available') });
    expectStatus(created, 200);
    expect(object(created)['id']).toBe(9001);
    const read = await call('GET', '/plant/9001');
    expectStatus(read, 200);
    expect(object(read)['name']).toBe('maidenhair');
    expectStatus(await call('POST', '/plant', { json: plant(9001, 'twice', 'sold') }), 409);
  },
  '/plant/findByStatus is the plants of that status ("available" by default)': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: plant(9101, 'fern', 'available') }), 200);
    expectStatus(await call('POST', '/plant', { json: plant(9102, 'cactus', 'sold') }), 200);
    const sold = records(await call('GET', '/plant/findByStatus?status=sold'));
    expect(ids(sold)).toContain('9102');
    expect(ids(sold)).not.toContain('9101');
    expect(sold.every((one) => one['status'] === 'sold')).toBe(true);
    const byDefault = records(await call('GET', '/plant/findByStatus'));
    expect(ids(byDefault)).toContain('9101');
    expect(byDefault.every((one) => one['status'] === 'available')).toBe(true);
  },
  '/plant/findByTags lists the plants carrying one of the tags': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: plant(9111, 'fern', 'available', ['shade']) }), 200);
    expectStatus(await call('POST', '/plant', { json: plant(9112, 'cactus', 'available', ['sun']) }), 200);
    const shade = ids(records(await call('GET', '/plant/findByTags?tags=shade')));
    expect(shade).toContain('9111');
    expect(shade).not.toContain('9112');
    const both = ids(records(await call('GET', '/plant/findByTags?tags=shade&tags=sun')));
    expect(both).toEqual(expect.arrayContaining(['9111', '9112']));
  },
  'PUT /plant replaces the plant the body names; an id no plant has is a 404': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: plant(9121, 'ivy', 'available') }), 200);
    const replaced = await call('PUT', '/plant', { json: plant(9121, 'english ivy', 'pending') });
    expectStatus(replaced, 200);
    expect(object(replaced)).toMatchObject({ id: 9121, name: 'english ivy', status: 'pending' });
    expect(object(await call('GET', '/plant/9121'))).toMatchObject({ name: 'english ivy', status: 'pending' });
    expectStatus(await call('PUT', '/plant', { json: plant(424242, 'nobody', 'pending') }), 404);
  },
  'a plant sent as a form (application/x-www-form-urlencoded, declared) is stored like JSON': async ({ call }) => {
    const created = await call('POST', '/plant', { form: { id: '9131', name: 'formed', photoUrls: ['a.png', 'b.png'], status: 'available' } });
    expectStatus(created, 200);
    expect(object(await call('GET', '/plant/9131'))).toMatchObject({ id: 9131, name: 'formed', photoUrls: ['a.png', 'b.png'] });
  },
  'a gardener is created, read, changed and deleted by the username the client chose': async ({ call }) => {
    const created = await call('POST', '/gardener', { json: { id: 5, username: 'ada', firstName: 'Ada' } });
    expectStatus(created, 200);
    expect(object(created)['username']).toBe('ada');
    expect(object(await call('GET', '/gardener/ada'))['firstName']).toBe('Ada');
    expectSuccess(await call('PUT', '/gardener/ada', { json: { id: 5, username: 'ada', firstName: 'Ida' } }));
    expect(object(await call('GET', '/gardener/ada'))['firstName']).toBe('Ida');
    expectStatus(await call('DELETE', '/gardener/ada'), 200);
    expectStatus(await call('GET', '/gardener/ada'), 404);
  },
  'a deleted plant is gone from its read and from /plant/findByStatus': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: plant(9141, 'orchid', 'pending') }), 200);
    expectStatus(await call('DELETE', '/plant/9141'), 200);
    expectStatus(await call('GET', '/plant/9141'), 404);
    expect(ids(records(await call('GET', '/plant/findByStatus?status=pending')))).not.toContain('9141');
  },
  'bad input: a plant without its required name is a 400 and nothing is stored': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: { id: 9151, photoUrls: [] } }), 400);
    expectStatus(await call('GET', '/plant/9151'), 404);
    expectStatus(await call('GET', '/plant/findByStatus?status=lost'), 400);
  },
  'an image uploaded as application/octet-stream is answered with an ApiResponse': async ({ call }) => {
    expectStatus(await call('POST', '/plant', { json: plant(9161, 'moss', 'available') }), 200);
    const answer = await call('POST', '/plant/9161/uploadImage?additionalMetadata=side', { bytes: { contentType: 'application/octet-stream', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) } });
    expectStatus(answer, 200);
    expect(answer.type).toBe('application/json');
    object(answer);
  },
};

/** bookshop-2.0.yaml: the Swagger 2.0 Petstore shape. */
export const bookshop: Record<string, WildProbe> = {
  'it is served at its basePath /v2': async ({ baseUrl }) => {
    expect(new URL(baseUrl).pathname).toBe('/v2');
  },
  'addBook (an `in: body` parameter) stores the book, getBookById reads it and findByStatus (csv) lists it': async ({ call }) => {
    expectSuccess(await call('POST', '/book', { json: { id: 77, title: 'Dune', photoUrls: [], status: 'sold' } }));
    expect(object(await call('GET', '/book/77'))).toMatchObject({ id: 77, title: 'Dune', status: 'sold' });
    const listed = records(await call('GET', '/book/findByStatus?status=pending,sold'));
    expect(ids(listed)).toContain('77');
    expect(ids(records(await call('GET', '/book/findByStatus?status=available')))).not.toContain('77');
  },
  'updateBookWithForm (formData, urlencoded) changes the title and status': async ({ call }) => {
    expectSuccess(await call('POST', '/book', { json: { id: 78, title: 'Emma', photoUrls: [] } }));
    expectSuccess(await call('POST', '/book/78', { form: { title: 'Persuasion', status: 'available' } }));
    expect(object(await call('GET', '/book/78'))).toMatchObject({ title: 'Persuasion', status: 'available' });
  },
  'a cover uploaded as multipart/form-data (type: file) is answered with an ApiResponse': async ({ call }) => {
    expectSuccess(await call('POST', '/book', { json: { id: 79, title: 'Ulysses', photoUrls: [] } }));
    const form = new FormData();
    form.append('additionalMetadata', 'front');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'cover.png');
    const answer = await call('POST', '/book/79/uploadCover', { multipart: form });
    expectStatus(answer, 200);
    object(answer);
  },
  'a reader is created, read and deleted by username': async ({ call }) => {
    expectSuccess(await call('POST', '/reader', { json: { username: 'paul', firstName: 'Paul' } }));
    expect(object(await call('GET', '/reader/paul'))['firstName']).toBe('Paul');
    expectSuccess(await call('DELETE', '/reader/paul'));
    expectStatus(await call('GET', '/reader/paul'), 404);
  },
  'bad input: a book without its required title is refused and not stored': async ({ call }) => {
    const refused = await call('POST', '/book', { json: { id: 80, photoUrls: [] } });
    expect(refused.status >= 400 && refused.status < 500, `a 4xx, got ${refused.status}`).toBe(true);
    expectStatus(await call('GET', '/book/80'), 404);
  },
};

/** notes-3.0.yaml: the OAI petstore shape. */
export const notes: Record<string, WildProbe> = {
  'a created note (201, no body) is listed and read by the id its body carries': async ({ call }) => {
    const created = await call('POST', '/notes', { json: { id: 12, title: 'Groceries', topic: 'home' } });
    expectStatus(created, 201);
    expect(created.text).toBe('');
    expect(ids(records(await call('GET', '/notes')))).toContain('12');
    expect(object(await call('GET', '/notes/12'))).toEqual({ id: 12, title: 'Groceries', topic: 'home' });
  },
  'limit caps the page (at most 100)': async ({ call }) => {
    for (const id of [21, 22, 23]) expectStatus(await call('POST', '/notes', { json: { id, title: `note ${id}` } }), 201);
    expect(records(await call('GET', '/notes?limit=2')).length).toBe(2);
    const refused = await call('GET', '/notes?limit=101');
    expectStatus(refused, 400);
    expect(object(refused)).toMatchObject({ code: 400 });
  },
  'an id already taken is a 409': async ({ call }) => {
    expectStatus(await call('POST', '/notes', { json: { id: 31, title: 'first' } }), 201);
    expectStatus(await call('POST', '/notes', { json: { id: 31, title: 'second' } }), 409);
    expect(object(await call('GET', '/notes/31'))['title']).toBe('first');
  },
  'bad input: a note without title is a 400 in the {code, message} shape; an unknown note a 404': async ({ call }) => {
    const refused = await call('POST', '/notes', { json: { id: 41 } });
    expectStatus(refused, 400);
    expect(Object.keys(object(refused)).sort()).toEqual(['code', 'message']);
    const missing = await call('GET', '/notes/41');
    expectStatus(missing, 404);
    expect(object(missing)['code']).toBe(404);
  },
};

/** recipes-expanded-3.0.yaml: the OAI petstore-expanded shape. */
export const recipes: Record<string, WildProbe> = {
  'a fresh mock lists no records the spec does not hold (it has no examples)': async ({ call }) => {
    expect(records(await call('GET', '/recipes'))).toEqual([]);
  },
  'a recipe is created (200 with its id), read, listed, deleted (204) and then gone everywhere': async ({ call }) => {
    const created = object(await call('POST', '/recipes', { json: { name: 'Soup', tag: 'winter' } }));
    expect(created).toMatchObject({ name: 'Soup', tag: 'winter' });
    const id = String(created['id']);
    expect(object(await call('GET', `/recipes/${id}`))['name']).toBe('Soup');
    expect(ids(records(await call('GET', '/recipes')))).toContain(id);
    expectStatus(await call('DELETE', `/recipes/${id}`), 204);
    expectStatus(await call('GET', `/recipes/${id}`), 404);
    expect(ids(records(await call('GET', '/recipes')))).not.toContain(id);
  },
  'tags filter by membership: a recipe is listed when its tag is one of those given': async ({ call }) => {
    const soup = String(object(await call('POST', '/recipes', { json: { name: 'Soup', tag: 'winter' } }))['id']);
    const salad = String(object(await call('POST', '/recipes', { json: { name: 'Salad', tag: 'summer' } }))['id']);
    const cake = String(object(await call('POST', '/recipes', { json: { name: 'Cake', tag: 'party' } }))['id']);
    const winter = ids(records(await call('GET', '/recipes?tags=winter')));
    expect(winter).toContain(soup);
    expect(winter).not.toContain(salad);
    const two = ids(records(await call('GET', '/recipes?tags=winter&tags=summer')));
    expect(two).toEqual(expect.arrayContaining([soup, salad]));
    expect(two).not.toContain(cake);
  },
  'limit=1 answers one recipe': async ({ call }) => {
    for (const name of ['A', 'B']) expectSuccess(await call('POST', '/recipes', { json: { name } }));
    expect(records(await call('GET', '/recipes?limit=1')).length).toBe(1);
  },
  'bad input: a recipe without name is a 400 {code, message}, nothing stored': async ({ call }) => {
    const before = records(await call('GET', '/recipes')).length;
    const refused = await call('POST', '/recipes', { json: { tag: 'nameless' } });
    expectStatus(refused, 400);
    expect(Object.keys(object(refused)).sort()).toEqual(['code', 'message']);
    expect(records(await call('GET', '/recipes')).length).toBe(before);
  },
};

const ride = (product: string, latitude = 48.85) => ({ product_id: product, start_latitude: latitude, start_longitude: 2.35 });

/** rides-offset-3.0.yaml: the OAI Uber example's shape. */
export const rides: Record<string, WildProbe> = {
  'requested rides are listed; offset pages of 3 partition the list and count is the number of rides': async ({ call }) => {
    for (const product of ['x', 'pool', 'black', 'x', 'pool', 'x', 'black']) expectStatus(await call('POST', '/rides', { json: ride(product) }), 201);
    const first = object(await call('GET', '/rides?limit=100'));
    const all = (first['rides'] as Record<string, unknown>[]).map((one) => String(one['ride_id']));
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(first['count']).toBe(all.length);
    const pages: Record<string, unknown>[] = [];
    for (let offset = 0; offset < all.length + 3; offset += 3) pages.push(object(await call('GET', `/rides?offset=${offset}&limit=3`)));
    expectPartition(pages.map((page) => (page['rides'] as Record<string, unknown>[]).map((one) => String(one['ride_id']))), all);
    pages.forEach((page, index) => expect(page).toMatchObject({ offset: index * 3, limit: 3, count: all.length }));
  },
  'a ride is read by its ride_id and cancelled (204); then a 404 in the {code, message, fields} shape': async ({ call }) => {
    const created = object(await call('POST', '/rides', { json: ride('x') }));
    const id = String(created['ride_id']);
    expect(object(await call('GET', `/rides/${id}`))).toMatchObject(ride('x'));
    expectStatus(await call('DELETE', `/rides/${id}`), 204);
    const gone = await call('GET', `/rides/${id}`);
    expectStatus(gone, 404);
    expect(object(gone)['code']).toBe(404);
  },
  'bad input: a latitude past 90, limit 101 or a negative offset is a 400': async ({ call }) => {
    expectStatus(await call('POST', '/rides', { json: ride('x', 91) }), 400);
    expectStatus(await call('GET', '/rides?limit=101'), 400);
    expectStatus(await call('GET', '/rides?offset=-1'), 400);
  },
  'the key goes in the server_token query parameter; without it, a 401': async ({ call }) => {
    expectStatus(await call('GET', '/rides', { auth: false }), 401);
    expectStatus(await call('GET', '/me'), 200);
  },
  'products need a latitude and a longitude': async ({ call }) => {
    expectStatus(await call('GET', '/products?latitude=48.85'), 400);
    expect(Array.isArray(records(await call('GET', '/products?latitude=48.85&longitude=2.35')))).toBe(true);
  },
};
