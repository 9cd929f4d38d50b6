import { describe, expect, it } from 'vitest';
import { documentMock, jsonCaller } from '../test/in-process.js';

/**
 * What a client writes comes back on read and in the list at its defaults (spec/DECISIONS.md › D840-D845): shapes of
 * public descriptions that made the mock forget a record it had just taken, each written here small.
 */
const json = (schema: object): object => ({ description: 'OK', content: { 'application/json': { schema } } });

/** A collection `/{name}` with a create, a list (answer `list`, query `parameters`) and a read by `{key}`. */
function collection(name: string, record: object, options: { body?: object; list?: object; parameters?: object[]; key?: object; responses?: (schema: object) => object } = {}): object {
  const answer = options.responses ?? ((schema: object) => ({ 200: json(schema) }));
  return {
    paths: {
      [`/${name}`]: {
        get: { operationId: `list_${name}`, parameters: options.parameters ?? [], responses: answer(options.list ?? { type: 'array', items: record }) },
        post: { operationId: `create_${name}`, requestBody: { required: true, content: { 'application/json': { schema: options.body ?? record } } }, responses: { ...answer(record), 400: { description: 'refused' } } },
      },
      [`/${name}/{key}`]: {
        get: { operationId: `get_${name}`, parameters: [{ name: 'key', in: 'path', required: true, schema: options.key ?? { type: 'string' } }], responses: { ...answer(record), 404: { description: 'none' } } },
      },
    },
  };
}

describe('an offset whose default is 1 and that states no minimum counts from 1 (D840)', () => {
  it('lists the first record at the defaults', async () => {
    const record = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };
    const start = { name: 'start', in: 'query', description: 'The first index of the query result.', schema: { type: 'integer', default: 1 } };
    const send = jsonCaller(await documentMock(collection('templates', record, { parameters: [start], list: { type: 'object', properties: { data: { type: 'array', items: record } } } })));
    expect(send('POST', '/templates', { name: 'written' }).status).toBe(200);
    expect(send('GET', '/templates').json).toEqual({ data: [{ id: '1', name: 'written' }] });
    expect(send('GET', '/templates?start=1').json).toEqual({ data: [{ id: '1', name: 'written' }] });
    expect(send('GET', '/templates?start=2').json).toEqual({ data: [] });
    // No minimum refuses 0: it asks from the start as well.
    expect(send('GET', '/templates?start=0').json).toEqual({ data: [{ id: '1', name: 'written' }] });
  });
});

describe('a record created without the member a list filters on by default starts in that default (D841)', () => {
  const record = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, state: { type: 'string', enum: ['active', 'inactive', 'archived'] } } };
  const state = { name: 'state', in: 'query', schema: { type: 'string', enum: ['active', 'inactive', 'archived'], default: 'active' } };

  it('lists a class created with no state, which the create body cannot name', async () => {
    const body = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const send = jsonCaller(await documentMock(collection('classes', record, { body, parameters: [state] })));
    const created = send('POST', '/classes', { name: 'Music' });
    expect(created.json).toEqual({ id: '1', name: 'Music', state: 'active' });
    expect(send('GET', '/classes').json).toEqual([{ id: '1', name: 'Music', state: 'active' }]);
    expect(send('GET', '/classes/1').json).toEqual({ id: '1', name: 'Music', state: 'active' });
  });

  it('keeps a state the client wrote, which the default filter then leaves out', async () => {
    const send = jsonCaller(await documentMock(collection('classes', record, { parameters: [state] })));
    send('POST', '/classes', { name: 'Old', state: 'archived' });
    expect(send('GET', '/classes').json).toEqual([]);
    expect(send('GET', '/classes?state=archived').json).toEqual([{ id: '1', name: 'Old', state: 'archived' }]);
  });
});

describe('a key the mock makes fits the pattern its item path declares (D842)', () => {
  it('reads back a created link by the key the create answered', async () => {
    const record = { type: 'object', properties: { id: { type: 'string', minLength: 32, maxLength: 32, readOnly: true }, description: { type: 'string' } } };
    const key = { type: 'string', pattern: '[0N1RWU4X6F8Z9ALBQC3EG5HJKM2PS7TVDY]{32}' };
    const send = jsonCaller(await documentMock(collection('links', record, { key })));
    const created = send('POST', '/links', { description: 'written' });
    const id = (created.json as { id: string }).id;
    expect(id).toMatch(/^[0N1RWU4X6F8Z9ALBQC3EG5HJKM2PS7TVDY]{32}$/);
    expect(send('GET', `/links/${id}`).json).toEqual({ id, description: 'written' });
  });
});

describe('a key written for a member held as an object keys it by the name the records\' own keys have (D843)', () => {
  it('answers the organization written as its gid', async () => {
    const compact = { type: 'object', properties: { gid: { type: 'string', readOnly: true }, resource_type: { type: 'string', readOnly: true }, name: { type: 'string' } } };
    const record = { type: 'object', properties: { gid: { type: 'string', readOnly: true }, state: { type: 'string', readOnly: true, enum: ['started'] }, organization: compact } };
    const body = { type: 'object', properties: { organization: { type: 'string', description: 'Globally unique identifier for the workspace or organization.' } } };
    const send = jsonCaller(await documentMock(collection('exports', record, { body })));
    const created = send('POST', '/exports', { organization: '1331' });
    expect((created.json as { organization: { gid: string } }).organization.gid).toBe('1331');
    expect((send('GET', `/exports/${String((created.json as { gid: string }).gid)}`).json as { organization: { gid: string } }).organization.gid).toBe('1331');
  });
});

describe('a success documented only as 2XX answers the record (D844)', () => {
  it('answers the created and the read record as JSON', async () => {
    const record = { type: 'object', properties: { id: { type: 'string' }, clientId: { type: 'string' } } };
    const send = jsonCaller(await documentMock(collection('devices', record, { responses: (schema) => ({ '2XX': json(schema) }) })));
    const created = send('POST', '/devices', { id: 'd1', clientId: 'written' });
    expect({ status: created.status, type: created.headers['content-type'], json: created.json }).toEqual({ status: 200, type: expect.stringMatching(/^application\/json/), json: { id: 'd1', clientId: 'written' } });
    expect(send('GET', '/devices/d1').json).toEqual({ id: 'd1', clientId: 'written' });
  });
});

describe('additionalProperties: false beside allOf closes the object over the parts\' members (D845)', () => {
  it('takes a body of the parts\' members and refuses one with another', async () => {
    const images = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, image_data: { type: 'string' } } };
    const body = { type: 'object', additionalProperties: false, allOf: [images], required: ['name', 'image_data'] };
    const send = jsonCaller(await documentMock(collection('images', images, { body })));
    const created = send('POST', '/images', { name: 'logo', image_data: 'written' });
    expect({ status: created.status, json: created.json }).toEqual({ status: 200, json: { id: '1', name: 'logo', image_data: 'written' } });
    expect(send('POST', '/images', { name: 'logo', image_data: 'x', other: 1 }).status).toBe(400);
  });
});
