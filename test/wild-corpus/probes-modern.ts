import { expect } from 'vitest';
import { expectPartition, expectStatus, nextLink, object, records, type WildClient, type WildProbe } from './wild-client.js';

// Probes of the specs in the shapes of modern public descriptions (spec/wild/README.md): wrapped and paged lists,
// sub-resources, problem+json errors, binary answers, token and cursor pagination, form bodies.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Reads every page of `path` with `page`/`limit` until a short page (or 50 pages); the ids of each page. */
async function pagesByNumber(call: WildClient['call'], path: string, limit: number, idName: string, member?: string): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; page <= 50; page++) {
    const answer = await call('GET', `${path}?page=${page}&limit=${limit}`);
    expectStatus(answer, 200);
    const ids = records(answer, member).map((record) => String(record[idName]));
    pages.push(ids);
    if (ids.length < limit) break;
  }
  return pages;
}

const reservation = (name: string) => ({ crossing_id: '9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04', passenger_name: name, has_car: false, has_pet: true });
const card = { object: 'card', name: 'A. Lovelace', number: '4242424242424242', cvc: '123', exp_month: 12, exp_year: 2030, address_country: 'fr' };

/** ferry-travel-3.1.yaml: the Train Travel API shape. */
export const ferry: Record<string, WildProbe> = {
  'created reservations appear in GET /reservations {data, links}; page 2 is the next ones, pages partition the list': async ({ call }) => {
    const created: string[] = [];
    for (const name of ['Ada', 'Grace', 'Edsger', 'Barbara', 'Alan']) {
      const answer = await call('POST', '/reservations', { json: reservation(name) });
      expectStatus(answer, 201);
      created.push(String(object(answer)['id']));
    }
    const all = records(await call('GET', '/reservations?limit=100'), 'data').map((record) => String(record['id']));
    expect(all).toEqual(expect.arrayContaining(created));
    expectPartition(await pagesByNumber(call, '/reservations', 2, 'id', 'data'), all);
  },
  'a reservation is read by its id, deleted (204), then a 404 in application/problem+json and in no list': async ({ call }) => {
    const id = String(object(await call('POST', '/reservations', { json: reservation('Hopper') }))['id']);
    expect(object(await call('GET', `/reservations/${id}`))['passenger_name']).toBe('Hopper');
    expectStatus(await call('DELETE', `/reservations/${id}`), 204);
    const gone = await call('GET', `/reservations/${id}`);
    expectStatus(gone, 404);
    expect(gone.type).toBe('application/problem+json');
    expect(records(await call('GET', '/reservations?limit=100'), 'data').map((record) => String(record['id']))).not.toContain(id);
  },
  'a payment of a reservation echoes what was sent, never the writeOnly cvc; a reservation that does not exist is a 404': async ({ call }) => {
    const id = String(object(await call('POST', '/reservations', { json: reservation('Knuth') }))['id']);
    const paid = await call('POST', `/reservations/${id}/payment`, { json: { amount: 79.5, currency: 'eur', source: card } });
    expectStatus(paid, 200);
    const payment = object(paid);
    expect(payment).toMatchObject({ amount: 79.5, currency: 'eur' });
    expect(payment['source']).toMatchObject({ object: 'card', name: 'A. Lovelace' });
    expect(payment['source']).not.toHaveProperty('cvc');
    expect(['pending', 'succeeded', 'failed']).toContain(payment['status']);
    const orphan = await call('POST', '/reservations/00000000-0000-4000-8000-000000000000/payment', { json: { amount: 79.5, currency: 'eur', source: card } });
    expectStatus(orphan, 404);
    expect(orphan.type).toBe('application/problem+json');
  },
  'bad input: a payment without amount, a reservation without passenger_name: 400 in application/problem+json': async ({ call }) => {
    const id = String(object(await call('POST', '/reservations', { json: reservation('Liskov') }))['id']);
    const badPayment = await call('POST', `/reservations/${id}/payment`, { json: { currency: 'eur', source: card } });
    expectStatus(badPayment, 400);
    expect(badPayment.type).toBe('application/problem+json');
    const badReservation = await call('POST', '/reservations', { json: { crossing_id: '9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04' } });
    expectStatus(badReservation, 400);
    expect(object(badReservation)['status']).toBe(400);
  },
  'the crossings between two ports are listed as the example shows; a reservation of a crossing that does not exist is a 404 in application/problem+json': async ({ call }) => {
    const route = 'origin=6b1f3c0e-3c55-4b59-9d1f-1f4a3b8e2a01&destination=0d0c4f1a-8f9e-4e8b-a3c1-55a6c1f2b302';
    const crossings = records(await call('GET', `/crossings?${route}&date=2024-02-01T09:00:00Z`), 'data');
    expect(crossings.map((crossing) => crossing['id'])).toContain('9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04');
    expectStatus(await call('GET', '/crossings'), 400);
    const orphan = await call('POST', '/reservations', { json: { ...reservation('Noether'), crossing_id: '00000000-0000-4000-8000-000000000000' } });
    expectStatus(orphan, 404);
    expect(orphan.type).toBe('application/problem+json');
  },
  'without a token: 401 in application/problem+json': async ({ call }) => {
    const refused = await call('GET', '/reservations', { auth: false });
    expectStatus(refused, 401);
    expect(refused.type).toBe('application/problem+json');
  },
  'a fresh mock starts with the reservation its list example shows, readable by its id': async ({ call }) => {
    const listed = records(await call('GET', '/reservations?limit=100'), 'data');
    expect(listed.map((record) => record['passenger_name'])).toContain('Ada Lovelace');
    expect(object(await call('GET', '/reservations/2a8e9c57-51c4-4b43-9a52-f7b0e2d1c403'))['passenger_name']).toBe('Ada Lovelace');
  },
  'ports are offered as JSON and XML: Accept picks XML': async ({ call }) => {
    const xml = await call('GET', '/ports', { headers: { accept: 'application/xml' } });
    expectStatus(xml, 200);
    expect(xml.type).toBe('application/xml');
    expect(xml.text.trimStart().startsWith('<')).toBe(true);
  },
};

const exhibition = (title: string, exhibitionId?: string) => ({
  ...(exhibitionId === undefined ? {} : { exhibitionId }),
  title,
  room: 'East Wing',
  description: 'Photographs.',
  dates: ['2025-10-01'],
  price: 25,
});

/** gallery-3.1.yaml: the Redocly Museum API shape. */
export const gallery: Record<string, WildProbe> = {
  'an exhibition created with the exhibitionId the client chose is read by it': async ({ call }) => {
    const id = '0f6b5a3e-2f1c-4d7e-9a8b-1c2d3e4f5a6b';
    const created = await call('POST', '/exhibitions', { json: exhibition('Light and Shadow', id) });
    expectStatus(created, 201);
    expect(object(created)['exhibitionId']).toBe(id);
    expect(object(await call('GET', `/exhibitions/${id}`))['title']).toBe('Light and Shadow');
  },
  'page 2 is the next exhibitions: pages of 2 partition the list': async ({ call }) => {
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five']) expectStatus(await call('POST', '/exhibitions', { json: exhibition(title) }), 201);
    const all = records(await call('GET', '/exhibitions?limit=30')).map((record) => String(record['exhibitionId']));
    expect(all.length).toBeGreaterThanOrEqual(5);
    expectPartition(await pagesByNumber(call, '/exhibitions', 2, 'exhibitionId'), all);
  },
  'PATCH changes the fields sent and keeps the others; DELETE answers 204, then a 404 in application/problem+json': async ({ call }) => {
    const id = String(object(await call('POST', '/exhibitions', { json: exhibition('Water') }))['exhibitionId']);
    const patched = await call('PATCH', `/exhibitions/${id}`, { json: { price: 30 } });
    expectStatus(patched, 200);
    expect(object(patched)).toMatchObject({ title: 'Water', room: 'East Wing', price: 30 });
    expectStatus(await call('DELETE', `/exhibitions/${id}`), 204);
    const gone = await call('GET', `/exhibitions/${id}`);
    expectStatus(gone, 404);
    expect(gone.type).toBe('application/problem+json');
  },
  'bad input: an exhibition without its title, or limit 31: 400 in application/problem+json': async ({ call }) => {
    const refused = await call('POST', '/exhibitions', { json: { room: 'East Wing', description: 'x', dates: [], price: 1 } });
    expectStatus(refused, 400);
    expect(refused.type).toBe('application/problem+json');
    expectStatus(await call('GET', '/exhibitions?limit=31'), 400);
  },
  'without credentials: 401 in application/problem+json': async ({ call }) => {
    const refused = await call('GET', '/exhibitions', { auth: false });
    expectStatus(refused, 401);
    expect(refused.type).toBe('application/problem+json');
  },
  "a pass's QR code is a PNG image": async ({ call }) => {
    const answer = await call('GET', '/passes/7d8c6a51-0f4b-4e7a-9a0c-1b2c3d4e5f60/qr');
    expectStatus(answer, 200);
    expect(answer.type).toBe('image/png');
    expect([...answer.bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
  },
  'Prefer: example=exhibition_entry answers that named example; an unknown name is a 400': async ({ call }) => {
    const body = { passType: 'exhibition', exhibitionId: '3be6453c-03eb-4357-ae5a-984a0e574a54', passDate: '2025-09-05' };
    const named = await call('POST', '/passes', { json: body, headers: { prefer: 'example=exhibition_entry' } });
    expectStatus(named, 201);
    expect(object(named)['confirmationCode']).toBe('pass-exhibition-a98c8f-7eb12');
    expectStatus(await call('POST', '/passes', { json: body, headers: { prefer: 'example=no_such_example' } }), 400);
  },
  'buying a pass answers a confirmation whose code matches its pattern': async ({ call }) => {
    const answer = await call('POST', '/passes', { json: { passType: 'general', passDate: '2025-09-07', email: 'todd@example.com' } });
    expectStatus(answer, 201);
    expect(object(answer)['confirmationCode']).toMatch(/^pass-(general|exhibition)-[0-9a-f]{6}-[0-9a-f]{5}$/);
  },
};

/** Follows `rel="next"` Link headers from `path`; the ids of each page. */
async function pagesByLink(client: WildClient, path: string, idName: string): Promise<{ pages: string[][]; total: string | null }> {
  const pages: string[][] = [];
  let url: string | undefined = `${client.baseUrl}${path}`;
  let total: string | null = null;
  for (let count = 0; url !== undefined && count < 50; count++) {
    const absolute: string = new URL(url, client.baseUrl).href;
    const answer = await client.call('GET', absolute.slice(client.baseUrl.length));
    expectStatus(answer, 200);
    total = answer.headers.get('x-total-count');
    pages.push(records(answer).map((record) => String(record[idName])));
    url = nextLink(answer.headers.get('link'));
  }
  return { pages, total };
}

/** identity-clients-3.0.yaml: the Ory Hydra shape. */
export const identity: Record<string, WildProbe> = {
  'a client is created with the client_id it sends, read by it, and a taken client_id is a 409': async ({ call }) => {
    const created = await call('POST', '/admin/clients', { json: { client_id: 'shop-web', client_name: 'Shop web', audience: ['https://shop.example.com'] } });
    expectStatus(created, 201);
    expect(object(created)).toMatchObject({ client_id: 'shop-web', client_name: 'Shop web', audience: ['https://shop.example.com'] });
    expect(object(await call('GET', '/admin/clients/shop-web'))['client_name']).toBe('Shop web');
    expectStatus(await call('POST', '/admin/clients', { json: { client_id: 'shop-web' } }), 409);
  },
  'without a client_id, one is generated and the client is readable by it': async ({ call }) => {
    const created = object(await call('POST', '/admin/clients', { json: { client_name: 'Anonymous' } }));
    expect(typeof created['client_id']).toBe('string');
    expect(object(await call('GET', `/admin/clients/${String(created['client_id'])}`))['client_name']).toBe('Anonymous');
  },
  'pages of page_size 2 followed by their Link rel="next" partition the clients; X-Total-Count counts them': async (client) => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) expectStatus(await client.call('POST', '/admin/clients', { json: { client_id: `app-${name}`, client_name: name } }), 201);
    const all = records(await client.call('GET', '/admin/clients?page_size=1000')).map((record) => String(record['client_id']));
    expect(all).toEqual(expect.arrayContaining(['app-a', 'app-b', 'app-c', 'app-d', 'app-e']));
    const { pages, total } = await pagesByLink(client, '/admin/clients?page_size=2', 'client_id');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expectPartition(pages, all);
    expect(total).toBe(String(all.length));
  },
  'client_name filters the list': async ({ call }) => {
    expectStatus(await call('POST', '/admin/clients', { json: { client_id: 'one', client_name: 'Kiosk' } }), 201);
    expectStatus(await call('POST', '/admin/clients', { json: { client_id: 'two', client_name: 'Till' } }), 201);
    expect(records(await call('GET', '/admin/clients?client_name=Kiosk')).map((record) => record['client_id'])).toEqual(['one']);
  },
  'PUT replaces a client; DELETE answers 204, then a 404 in the {error, error_description, status_code} shape': async ({ call }) => {
    expectStatus(await call('POST', '/admin/clients', { json: { client_id: 'pos', client_name: 'Point of sale' } }), 201);
    const replaced = await call('PUT', '/admin/clients/pos', { json: { client_id: 'pos', client_name: 'Register' } });
    expectStatus(replaced, 200);
    expect(object(await call('GET', '/admin/clients/pos'))['client_name']).toBe('Register');
    expectStatus(await call('DELETE', '/admin/clients/pos'), 204);
    const gone = await call('GET', '/admin/clients/pos');
    expectStatus(gone, 404);
    expect(object(gone)['status_code']).toBe(404);
  },
  'bad input: a client whose audience is not an array is a 400': async ({ call }) => {
    expectStatus(await call('POST', '/admin/clients', { json: { client_id: 'bad', audience: 'https://x.example.com' } }), 400);
    expectStatus(await call('GET', '/admin/clients/bad'), 404);
  },
  'token introspection takes a form body and answers {active}': async ({ call }) => {
    const answer = await call('POST', '/oauth2/introspect', { form: { token: 'opaque-token' } });
    expectStatus(answer, 200);
    expect(typeof object(answer)['active']).toBe('boolean');
    expectStatus(await call('POST', '/oauth2/introspect', { form: { scope: 'openid' } }), 400);
  },
};

/** Follows `response_metadata.next_cursor` from `/rooms.list`; the ids of each page. */
async function pagesByCursor(call: WildClient['call'], limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor = '';
  for (let count = 0; count < 50; count++) {
    const answer = await call('GET', `/rooms.list?limit=${limit}${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expectStatus(answer, 200);
    pages.push(records(answer, 'rooms').map((record) => String(record['id'])));
    const metadata = object(answer)['response_metadata'] as { next_cursor?: string } | undefined;
    cursor = metadata?.next_cursor ?? '';
    if (cursor === '') break;
  }
  return pages;
}

/**
 * chat-rooms-rpc-3.0.yaml: the Slack Web API shape. Its methods (`/rooms.create`, `/rooms.info`, `/rooms.rename`,
 * `/rooms.archive`) name their room in a query or form member and say what they do only in prose (which member
 * `archive` sets, which one `exclude_archived` reads), so by D72 they are answered from their examples with their
 * inputs checked, not kept as records: these probes hold the mock to that, not to a stateful room store.
 */
export const chat: Record<string, WildProbe> = {
  'a room created with a form is answered as {ok: true, room}; rooms.info and rooms.rename answer the same envelope': async ({ call }) => {
    const pattern = /^[a-z0-9_-]{1,80}$/;
    const created = await call('POST', '/rooms.create', { form: { name: 'general', is_private: 'false' } });
    expectStatus(created, 200);
    expect(object(created)['ok']).toBe(true);
    const room = object(created)['room'] as Record<string, unknown>;
    expect(String(room['name'])).toMatch(pattern);
    const info = await call('GET', `/rooms.info?room=${String(room['id'])}`);
    expectStatus(info, 200);
    expect(object(info)['ok']).toBe(true);
    expect(String((object(info)['room'] as Record<string, unknown>)['name'])).toMatch(pattern);
    const renamed = await call('POST', '/rooms.rename', { form: { room: String(room['id']), name: 'watercooler' } });
    expectStatus(renamed, 200);
    expect(object(renamed)['ok']).toBe(true);
    expectStatus(await call('POST', '/rooms.archive', { form: { room: String(room['id']) } }), 200);
  },
  'rooms.list answers {ok: true, rooms}; following next_cursor ends with an empty one, and the pages partition the list': async ({ call }) => {
    const all = records(await call('GET', '/rooms.list?limit=1000'), 'rooms').map((record) => String(record['id']));
    const pages = await pagesByCursor(call, 2);
    expect(pages.length).toBeLessThan(50);
    expectPartition(pages, all);
  },
  'bad input: rooms.info without its room, rooms.rename without a name: 4xx as {ok: false, error}': async ({ call }) => {
    for (const refused of [await call('GET', '/rooms.info'), await call('POST', '/rooms.rename', { form: { room: 'C1' } })]) {
      expect(refused.status >= 400 && refused.status < 500, `a 4xx, got ${refused.status}`).toBe(true);
      expect(object(refused)['ok']).toBe(false);
    }
  },
  'bad input: a room name with spaces is refused as {ok: false, error} with an error the spec lists': async ({ call }) => {
    const refused = await call('POST', '/rooms.create', { form: { name: 'Bad Name!' } });
    expect(refused.status >= 400 && refused.status < 500, `a 4xx, got ${refused.status}`).toBe(true);
    const body = object(refused);
    expect(body['ok']).toBe(false);
    const listed = ['missing_scope', 'not_authed', 'invalid_auth', 'invalid_arg_name', 'invalid_form_data', 'invalid_json', 'room_not_found', 'name_taken', 'invalid_name', 'already_archived'];
    expect(listed).toContain(body['error']);
    expect(records(await call('GET', '/rooms.list'), 'rooms').map((one) => one['name'])).not.toContain('Bad Name!');
  },
};

/**
 * forge-issues-3.0.yaml: the Gitea API shape (issues and comments under a repository). The item parameter `{index}`
 * names no property of `Issue`, which has both `id` and `number`: by D32 the record's identifier is `id`, so issues
 * are read by it (nothing in the spec says `{index}` is `number`).
 */
export const forge: Record<string, WildProbe> = {
  'the repository the examples show is there': async ({ call }) => {
    expect(object(await call('GET', '/repos/ada/compiler'))['full_name']).toBe('ada/compiler');
  },
  'issues created in a repository are listed by it and read by their number': async ({ call }) => {
    const numbers: string[] = [];
    for (const title of ['Parser crash', 'Slow start', 'Typo']) {
      const created = await call('POST', '/repos/ada/compiler/issues', { json: { title, body: 'seen today' } });
      expectStatus(created, 201);
      expect(object(created)).toMatchObject({ title, body: 'seen today' });
      numbers.push(String(object(created)['id']));
    }
    expect(new Set(numbers).size).toBe(3);
    const listed = records(await call('GET', '/repos/ada/compiler/issues?limit=50'));
    expect(listed.map((issue) => String(issue['id']))).toEqual(expect.arrayContaining(numbers));
    expect(object(await call('GET', `/repos/ada/compiler/issues/${numbers[1]!}`))['title']).toBe('Slow start');
  },
  'a repository that does not exist has no issues to list or create: 404 in the {message, url} shape': async ({ call }) => {
    const created = await call('POST', '/repos/nobody/nothing/issues', { json: { title: 'lost' } });
    expectStatus(created, 404);
    expect(object(created)).toHaveProperty('message');
    expectStatus(await call('GET', '/repos/nobody/nothing/issues'), 404);
  },
  'comments are added under an issue and listed by it; an issue that does not exist is a 404': async ({ call }) => {
    const issue = object(await call('POST', '/repos/ada/compiler/issues', { json: { title: 'Needs docs' } }));
    const number = String(issue['id']);
    const comment = await call('POST', `/repos/ada/compiler/issues/${number}/comments`, { json: { body: 'I can write them' } });
    expectStatus(comment, 201);
    expect(object(comment)['body']).toBe('I can write them');
    expect(records(await call('GET', `/repos/ada/compiler/issues/${number}/comments`)).map((one) => one['body'])).toEqual(['I can write them']);
    expectStatus(await call('POST', '/repos/ada/compiler/issues/999999/comments', { json: { body: 'nobody reads this' } }), 404);
  },
  'pages of limit 2 followed by their Link rel="next" partition the issues; X-Total-Count counts them': async (client) => {
    for (const title of ['a', 'b', 'c', 'd', 'e']) expectStatus(await client.call('POST', '/repos/ada/compiler/issues', { json: { title } }), 201);
    const all = records(await client.call('GET', '/repos/ada/compiler/issues?limit=50')).map((issue) => String(issue['id']));
    expect(all.length).toBeGreaterThanOrEqual(5);
    const { pages, total } = await pagesByLink(client, '/repos/ada/compiler/issues?limit=2', 'id');
    expectPartition(pages, all);
    expect(total).toBe(String(all.length));
  },
  'PATCH edits an issue (201) and closes it; DELETE answers 204, then a 404': async ({ call }) => {
    const number = String(object(await call('POST', '/repos/ada/compiler/issues', { json: { title: 'Old title' } }))['id']);
    const edited = await call('PATCH', `/repos/ada/compiler/issues/${number}`, { json: { title: 'New title', state: 'closed' } });
    expectStatus(edited, 201);
    expect(object(edited)).toMatchObject({ title: 'New title', state: 'closed' });
    expect(records(await call('GET', '/repos/ada/compiler/issues?state=closed&limit=50')).map((issue) => String(issue['id']))).toContain(number);
    expectStatus(await call('DELETE', `/repos/ada/compiler/issues/${number}`), 204);
    expectStatus(await call('GET', `/repos/ada/compiler/issues/${number}`), 404);
  },
  'bad input: an issue without its title is refused (400 or the documented 422) and not listed': async ({ call }) => {
    const refused = await call('POST', '/repos/ada/compiler/issues', { json: { body: 'no title' } });
    expectStatus(refused, [400, 422]);
    expect(records(await call('GET', '/repos/ada/compiler/issues?limit=50')).map((issue) => issue['body'])).not.toContain('no title');
  },
};
