import { expect } from 'vitest';
import { items, member, type Probe, type ProbeContext } from './probe-client.js';

// Direct probes, one small story per edit: what a front-end developer would try first after editing the spec.
// Bodies are written as text so that int64 literals go out exactly; answers are read with lossless-json.

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

/** Creates a record with `body` (JSON text) at `path` and returns its answer, expecting `status`. */
async function create(context: ProbeContext, body: string, status = 201, path = '/pets') {
  const answer = await context.call('POST', path, { body });
  expect(answer.status, answer.text).toBe(status);
  return answer;
}

const optionalField: Record<string, Probe> = {
  'the nickname is echoed by createPet and read back by getPet and listPets': async (context) => {
    const created = await create(context, '{"name":"Rex","categoryId":1,"nickname":"Rexy"}');
    expect(member(created.json, 'nickname')).toBe('Rexy');
    const id = member(created.json, 'id')!;
    expect(member((await context.call('GET', `/pets/${id}`)).json, 'nickname')).toBe('Rexy');
    const listed = items((await context.call('GET', '/pets?limit=100')).json).find((pet) => String(pet['id']) === id);
    expect(listed?.['nickname']).toBe('Rexy');
  },
  'a nickname that is not a string is a 400': async (context) => {
    expect((await context.call('POST', '/pets', { body: '{"name":"Rex","categoryId":1,"nickname":7}' })).status).toBe(400);
  },
};

const requiredField: Record<string, Probe> = {
  'a create without breed is a 400 and creates nothing': async (context) => {
    const before = items((await context.call('GET', '/pets?limit=100')).json).length;
    const refused = await context.call('POST', '/pets', { body: '{"name":"NoBreed","categoryId":1}' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('breed');
    expect(items((await context.call('GET', '/pets?limit=100')).json).length).toBe(before);
  },
  'with breed it is a 201 that repeats it': async (context) => {
    expect(member((await create(context, '{"name":"Rex","categoryId":1,"breed":"Beagle"}')).json, 'breed')).toBe('Beagle');
  },
};

const newEnumValue: Record<string, Probe> = {
  'status reserved is accepted and filtered on': async (context) => {
    const id = member((await create(context, '{"name":"Held","categoryId":1,"status":"reserved"}')).json, 'id');
    const page = items((await context.call('GET', '/pets?status=reserved&limit=100')).json);
    expect(page.map((pet) => String(pet['id']))).toContain(id);
    expect(page.every((pet) => pet['status'] === 'reserved')).toBe(true);
  },
  'a status outside the enum is still refused': async (context) => {
    expect((await context.call('GET', '/pets?status=lost')).status).toBe(400);
  },
};

const newFilter: Record<string, Probe> = {
  'categoryId filters exactly, at the int64 edge': async (context) => {
    await create(context, `{"name":"Edge","categoryId":${INT64_MAX}}`);
    await create(context, `{"name":"Near","categoryId":9223372036854775806}`);
    const answer = await context.call('GET', `/pets?categoryId=${INT64_MAX}&limit=100`);
    const page = items(answer.json);
    expect(page.length).toBeGreaterThan(0);
    expect(page.every((pet) => String(pet['categoryId']) === INT64_MAX)).toBe(true);
    expect(page.map((pet) => pet['name'])).toContain('Edge');
  },
  'a categoryId that is not an integer is a 400': async (context) => {
    expect((await context.call('GET', '/pets?categoryId=abc')).status).toBe(400);
  },
};

const booleanFilter: Record<string, Probe> = {
  'vaccinated=true and vaccinated=false split the records': async (context) => {
    await create(context, '{"name":"Yes","categoryId":1,"vaccinated":true}');
    await create(context, '{"name":"No","categoryId":1,"vaccinated":false}');
    const yes = items((await context.call('GET', '/pets?vaccinated=true&limit=100')).json);
    const no = items((await context.call('GET', '/pets?vaccinated=false&limit=100')).json);
    expect(yes.map((pet) => pet['name'])).toContain('Yes');
    expect(no.map((pet) => pet['name'])).toContain('No');
    expect(yes.every((pet) => pet['vaccinated'] === true) && no.every((pet) => pet['vaccinated'] === false)).toBe(true);
  },
};

const limitBounds: Record<string, Probe> = {
  'the default page is 10, 50 is allowed and 51 is a 400': async (context) => {
    for (let i = 0; i < 12; i++) await create(context, `{"name":"P${i}","categoryId":${i}}`);
    expect(items((await context.call('GET', '/pets')).json)).toHaveLength(10);
    expect((await context.call('GET', '/pets?limit=50')).status).toBe(200);
    expect((await context.call('GET', '/pets?limit=51')).status).toBe(400);
  },
};

const deleteProbes: Record<string, Probe> = {
  'DELETE answers 204, then getPet is 404, the list lacks it, and a second DELETE is 404': async (context) => {
    const id = member((await create(context, '{"name":"Gone","categoryId":1}')).json, 'id')!;
    const deleted = await context.call('DELETE', `/pets/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await context.call('GET', `/pets/${id}`)).status).toBe(404);
    expect(items((await context.call('GET', '/pets?limit=100')).json).map((pet) => String(pet['id']))).not.toContain(id);
    expect((await context.call('DELETE', `/pets/${id}`)).status).toBe(404);
  },
  'DELETE without a key is a 401 and deletes nothing': async (context) => {
    const id = member((await create(context, '{"name":"Kept","categoryId":1}')).json, 'id')!;
    expect((await context.call('DELETE', `/pets/${id}`, { key: null })).status).toBe(401);
    expect((await context.call('GET', `/pets/${id}`)).status).toBe(200);
  },
};

const putUpdate: Record<string, Probe> = {
  'PUT replaces every field, keeps the id, and reads show the new values': async (context) => {
    const id = member((await create(context, '{"name":"Old","categoryId":1,"status":"sold"}')).json, 'id')!;
    const replaced = await context.call('PUT', `/pets/${id}`, { body: `{"name":"New","categoryId":${INT64_MAX}}` });
    expect(replaced.status).toBe(200);
    expect(member(replaced.json, 'id')).toBe(id);
    const read = await context.call('GET', `/pets/${id}`);
    expect([member(read.json, 'name'), member(read.json, 'categoryId'), member(read.json, 'status')]).toEqual(['New', INT64_MAX, undefined]);
  },
  'PUT of an absent id is 404; an invalid body is 400 and changes nothing': async (context) => {
    expect((await context.call('PUT', '/pets/987654321987', { body: '{"name":"X","categoryId":1}' })).status).toBe(404);
    const id = member((await create(context, '{"name":"Stays","categoryId":2}')).json, 'id')!;
    expect((await context.call('PUT', `/pets/${id}`, { body: '{"name":"NoCategory"}' })).status).toBe(400);
    expect(member((await context.call('GET', `/pets/${id}`)).json, 'name')).toBe('Stays');
  },
};

const patchUpdate: Record<string, Probe> = {
  'PATCH changes the fields sent and keeps the others': async (context) => {
    const id = member((await create(context, `{"name":"Old","categoryId":${INT64_MIN},"status":"pending"}`)).json, 'id')!;
    const patched = await context.call('PATCH', `/pets/${id}`, { body: '{"name":"New"}' });
    expect(patched.status).toBe(200);
    const read = await context.call('GET', `/pets/${id}`);
    expect([member(read.json, 'name'), member(read.json, 'categoryId'), member(read.json, 'status')]).toEqual(['New', INT64_MIN, 'pending']);
  },
  'PATCH of an absent id is 404; an invalid value is 400': async (context) => {
    expect((await context.call('PATCH', '/pets/987654321987', { body: '{"name":"X"}' })).status).toBe(404);
    const id = member((await create(context, '{"name":"Stays","categoryId":2}')).json, 'id')!;
    expect((await context.call('PATCH', `/pets/${id}`, { body: '{"status":"lost"}' })).status).toBe(400);
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const secondResource: Record<string, Probe> = {
  'owners get uuid ids, are read back, filtered by city, and never listed as pets': async (context) => {
    const first = member((await create(context, '{"name":"Ada","city":"Lyon"}', 201, '/owners')).json, 'id')!;
    const second = member((await create(context, '{"name":"Bob","city":"Oslo"}', 201, '/owners')).json, 'id')!;
    expect(first).toMatch(UUID);
    expect(second).not.toBe(first);
    expect(member((await context.call('GET', `/owners/${first}`)).json, 'name')).toBe('Ada');
    expect(items((await context.call('GET', '/owners?city=Lyon&limit=100')).json).every((owner) => owner['city'] === 'Lyon')).toBe(true);
    const pets = items((await context.call('GET', '/pets?limit=100')).json);
    expect(pets.map((pet) => String(pet['id']))).not.toContain(first);
  },
  'an owner id that names nobody is 404; an id sent by the client is ignored, the server assigns its own (D5, D31)': async (context) => {
    const sent = '00000000-0000-4000-8000-000000000000';
    expect((await context.call('GET', `/owners/${sent}`)).status).toBe(404);
    const created = await create(context, `{"id":"${sent}","name":"Eve"}`, 201, '/owners');
    expect(member(created.json, 'id')).toMatch(UUID);
    expect(member(created.json, 'id')).not.toBe(sent);
    expect((await context.call('GET', `/owners/${sent}`)).status).toBe(404);
  },
};

const v2BasePath: Record<string, Probe> = {
  '/v2 is served and /v1 is not': async (context) => {
    expect((await context.call('GET', '/pets')).status).toBe(200);
    const v1 = context.baseUrl.replace(/\/v2$/, '/v1');
    expect(v1).not.toBe(context.baseUrl);
    expect((await context.call('GET', '/pets', { baseUrl: v1 })).status).toBe(404);
  },
};

const openapi30: Record<string, Probe> = {
  'a null nickname is accepted and echoed as null; a null status is still a 400': async (context) => {
    const created = await create(context, '{"name":"Nobody","categoryId":1,"nickname":null}');
    expect(created.text).toContain('"nickname":null');
    const id = member(created.json, 'id')!;
    expect((await context.call('GET', `/pets/${id}`)).text).toContain('"nickname":null');
    expect((await context.call('POST', '/pets', { body: '{"name":"X","categoryId":1,"status":null}' })).status).toBe(400);
  },
};

const noSecurity: Record<string, Probe> = {
  'no key is needed for any operation': async (context) => {
    const created = await context.call('POST', '/pets', { body: '{"name":"Open","categoryId":1}', key: null });
    expect(created.status).toBe(201);
    expect((await context.call('GET', '/pets', { key: null })).status).toBe(200);
    expect((await context.call('GET', `/pets/${member(created.json, 'id')}`, { key: null })).status).toBe(200);
  },
};

const create200: Record<string, Probe> = {
  'createPet answers 200 with the new Pet': async (context) => {
    const created = await create(context, '{"name":"Two","categoryId":1}', 200);
    expect(member(created.json, 'id')).toMatch(/^-?\d+$/);
  },
};

const problemJson: Record<string, Probe> = {
  'a 404 and a 401 are application/problem+json with type, title, status and detail': async (context) => {
    for (const answer of [await context.call('GET', '/pets/987654321987'), await context.call('GET', '/pets', { key: null })]) {
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      const body = answer.json as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['detail', 'status', 'title', 'type']);
      expect(String(body['status'])).toBe(String(answer.status));
    }
  },
  'an invalid body is a 400 problem': async (context) => {
    const answer = await context.call('POST', '/pets', { body: '{"name":"NoCategory"}' });
    expect([answer.status, answer.contentType.split(';')[0], member(answer.json, 'status')]).toEqual([400, 'application/problem+json', '400']);
  },
};

const allofPet: Record<string, Probe> = {
  'a Pet written as allOf is created and read back whole': async (context) => {
    const created = await create(context, `{"name":"Merged","categoryId":${INT64_MAX},"status":"available"}`);
    const read = await context.call('GET', `/pets/${member(created.json, 'id')}`);
    expect([member(read.json, 'name'), member(read.json, 'categoryId'), member(read.json, 'status')]).toEqual(['Merged', INT64_MAX, 'available']);
  },
};

const nestedRecord: Record<string, Probe> = {
  'int64 inside the nested object and the array round-trip exactly': async (context) => {
    const nested = `"microchip":{"number":${INT64_MAX},"vendor":"Acme"},"tagIds":[${INT64_MIN},0,${INT64_MAX}]`;
    const created = await create(context, `{"name":"Chip","categoryId":1,${nested}}`);
    expect(created.text).toContain(nested);
    expect((await context.call('GET', `/pets/${member(created.json, 'id')}`)).text).toContain(nested);
  },
  'a nested int64 beyond the range, or a microchip without its number, is a 400': async (context) => {
    expect((await context.call('POST', '/pets', { body: '{"name":"X","categoryId":1,"tagIds":[9223372036854775808]}' })).status).toBe(400);
    expect((await context.call('POST', '/pets', { body: '{"name":"X","categoryId":1,"microchip":{"vendor":"Acme"}}' })).status).toBe(400);
  },
};

const unmappedOperation: Record<string, Probe> = {
  'GET /store/inventory answers its example, and 401 without a key': async (context) => {
    const answer = await context.call('GET', '/store/inventory');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ available: 7, pending: 2, sold: 11 });
    expect((await context.call('GET', '/store/inventory', { key: null })).status).toBe(401);
  },
};

const stringConstraints: Record<string, Probe> = {
  'names outside the bounds or the pattern are a 400; one inside is a 201': async (context) => {
    for (const name of ['', 'A'.repeat(41), '1abc', ' Rex']) {
      expect((await context.call('POST', '/pets', { body: JSON.stringify({ name, categoryId: 1 }) })).status, name).toBe(400);
    }
    expect(member((await create(context, `{"name":"${'B'.repeat(40)}","categoryId":1}`)).json, 'name')).toBe('B'.repeat(40));
  },
};

const serverAssignedField: Record<string, Probe> = {
  'createdAt is assigned as a date-time and kept on reads; one sent by the client is ignored (NewPet does not name it)': async (context) => {
    const created = await create(context, '{"name":"Stamped","categoryId":1}');
    const createdAt = member(created.json, 'createdAt')!;
    expect(Math.abs(Date.parse(createdAt) - Date.now())).toBeLessThan(60_000);
    expect(member((await context.call('GET', `/pets/${member(created.json, 'id')}`)).json, 'createdAt')).toBe(createdAt);
    const sent = await create(context, '{"name":"X","categoryId":1,"createdAt":"2020-01-01T00:00:00Z"}');
    expect(member(sent.json, 'createdAt')).not.toBe('2020-01-01T00:00:00Z');
  },
};

const writeOnlyField: Record<string, Probe> = {
  'microchipPin is accepted on creation and never returned': async (context) => {
    const created = await create(context, '{"name":"Secret","categoryId":1,"microchipPin":"0000"}');
    expect(created.text).not.toContain('microchipPin');
    expect((await context.call('GET', `/pets/${member(created.json, 'id')}`)).text).not.toContain('microchipPin');
    expect((await context.call('GET', '/pets?limit=100')).text).not.toContain('microchipPin');
  },
};

const closedSchema: Record<string, Probe> = {
  'an unknown member is a 400 naming it; the same body without it is a 201': async (context) => {
    const refused = await context.call('POST', '/pets', { body: '{"name":"Rex","categoryId":1,"colour":"red"}' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('colour');
    await create(context, '{"name":"Rex","categoryId":1}');
  },
};

const wrapperList: Record<string, Probe> = {
  'the page is in items, total counts every match, and the default limit holds': async (context) => {
    for (let i = 0; i < 3; i++) await create(context, `{"name":"W${i}","categoryId":${i},"status":"sold"}`);
    const page = (await context.call('GET', '/pets')).json as Record<string, unknown>;
    expect(Array.isArray(page['items'])).toBe(true);
    expect((page['items'] as unknown[]).length).toBeLessThanOrEqual(20);
    expect(Number(String(page['total']))).toBeGreaterThanOrEqual((page['items'] as unknown[]).length);
    const sold = (await context.call('GET', '/pets?status=sold&limit=1')).json as Record<string, unknown>;
    expect((sold['items'] as unknown[]).length).toBe(1);
    expect(Number(String(sold['total']))).toBeGreaterThanOrEqual(3);
  },
};

const apiKeyHeader: Record<string, Probe> = {
  'X-API-Key opens every operation; a bearer token does not': async (context) => {
    const headers = { 'x-api-key': 'corpus-key' };
    const created = await context.call('POST', '/pets', { body: '{"name":"Keyed","categoryId":1}', key: null, headers });
    expect(created.status).toBe(201);
    expect((await context.call('GET', `/pets/${member(created.json, 'id')}`, { key: null, headers })).status).toBe(200);
    expect((await context.call('GET', '/pets', { key: null, headers })).status).toBe(200);
    expect((await context.call('GET', '/pets')).status).toBe(401);
    expect((await context.call('GET', '/pets', { key: null, headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
  },
};

const pathParamId: Record<string, Probe> = {
  'GET /pets/{id} reads a created pet, and 404 for an absent one': async (context) => {
    const created = await create(context, `{"name":"Ided","categoryId":${INT64_MAX}}`);
    expect(member((await context.call('GET', `/pets/${member(created.json, 'id')}`)).json, 'categoryId')).toBe(INT64_MAX);
    expect((await context.call('GET', '/pets/987654321987')).status).toBe(404);
  },
};

const delete200: Record<string, Probe> = {
  'DELETE answers 200 with the removed Pet, then getPet is 404': async (context) => {
    const id = member((await create(context, '{"name":"Last","categoryId":5}')).json, 'id')!;
    const deleted = await context.call('DELETE', `/pets/${id}`);
    expect([deleted.status, member(deleted.json, 'id'), member(deleted.json, 'name')]).toEqual([200, id, 'Last']);
    expect((await context.call('GET', `/pets/${id}`)).status).toBe(404);
  },
};

/** The direct probes of every corpus case, by case name. */
export const PROBES: Record<string, Record<string, Probe>> = {
  'optional-field': optionalField,
  'required-field': requiredField,
  'new-enum-value': newEnumValue,
  'new-filter': newFilter,
  'boolean-filter': booleanFilter,
  'limit-bounds': limitBounds,
  delete: deleteProbes,
  'put-update': putUpdate,
  'patch-update': patchUpdate,
  'second-resource': secondResource,
  'v2-base-path': v2BasePath,
  'openapi-3.0': openapi30,
  'no-security': noSecurity,
  'create-200': create200,
  'problem-json-errors': problemJson,
  'allof-pet': allofPet,
  'nested-record': nestedRecord,
  'unmapped-operation': unmappedOperation,
  'string-constraints': stringConstraints,
  'server-assigned-field': serverAssignedField,
  'write-only-field': writeOnlyField,
  'closed-schema': closedSchema,
  'wrapper-list': wrapperList,
  'api-key-header': apiKeyHeader,
  'path-param-id': pathParamId,
  'delete-200': delete200,
};
