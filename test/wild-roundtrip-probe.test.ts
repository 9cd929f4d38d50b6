import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { roundTrip } from '../bench/wild-roundtrip.js';
import { startMock } from '../mock/index.js';

/**
 * The round trip of `bench:wild` (bench/wild-roundtrip.ts) asks as a client reading the description would: in the
 * JSON media type the create documents, a create's bare key read as the key, a list of keys searched for the key,
 * a list's required parameter the create wrote asked with the value written, a reference it cannot name left out,
 * a member read back only where the record holds it as text, a create answering only `true` not tried. Each shape
 * is a small description served by the mock on a free port.
 */
const json = (schema: object, media = 'application/json'): object => ({ description: 'OK', content: { [media]: { schema } } });

async function tripOn(paths: object): Promise<Awaited<ReturnType<typeof roundTrip>>> {
  const file = join(mkdtempSync(join(tmpdir(), 'round-trip-')), 'openapi.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'a description written by a test', version: '1' }, servers: [{ url: '/api' }], paths }));
  const mock = await startMock({ spec: file, port: 0, apiKeys: ['k'] });
  try {
    return await roundTrip(mock.model.resources, mock.baseUrl, 'k', mock.model.operations);
  } finally {
    await mock.close();
  }
}

const note = { type: 'object', properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } };

/** `/notes` with a create answering `created`, a list answering `listed` (with `parameters`), and a read answering `record`. */
function notes(created: object, listed: object = json({ type: 'array', items: note }), options: { body?: object; record?: object; media?: string; parameters?: object[]; extra?: object } = {}): object {
  return {
    '/notes': {
      get: { operationId: 'listNotes', parameters: options.parameters ?? [], responses: { 200: listed } },
      post: { operationId: 'createNote', requestBody: { content: { [options.media ?? 'application/json']: { schema: options.body ?? note } } }, responses: { 201: created, 404: { description: 'none' }, 415: { description: 'media' } } },
    },
    '/notes/{id}': { get: { operationId: 'getNote', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: json(options.record ?? note), 404: { description: 'none' } } } },
    ...options.extra,
  };
}

describe('the round trip asks as a client reading the description', () => {
  it('sends the JSON media type the create documents', async () => {
    const media = 'application/vnd.api+json';
    expect(await tripOn(notes(json(note, media), json({ type: 'array', items: note }, media), { media }))).toMatchObject({ created: 201, read: true, list: true });
  });

  it('reads a create that answers only the new key as that key', async () => {
    expect(await tripOn(notes(json({ type: 'string' })))).toMatchObject({ created: 201, read: true, list: true });
  });

  it('finds the record by its key in a list of keys', async () => {
    expect(await tripOn(notes(json(note), json({ type: 'object', properties: { noteIds: { type: 'array', items: { type: 'string' } } } })))).toMatchObject({ read: true, list: true });
  });

  it('asks a list for the value the create wrote to its required parameter', async () => {
    // The body's example and the parameter's differ, as a description's often do: the list is asked for the one written.
    const owned = { type: 'object', properties: { id: { type: 'string', readOnly: true }, ownerId: { type: 'string', format: 'uuid', example: '11111111-1111-4111-8111-111111111111' }, text: { type: 'string' } } };
    const parameter = { name: 'ownerId', in: 'query', required: true, example: '497f6eca-6276-4993-bfeb-53cbbbba6f08', schema: { type: 'string', format: 'uuid' } };
    const paths = notes(json(owned), json({ type: 'array', items: owned }), { body: owned, record: owned, parameters: [parameter] });
    expect(await tripOn(paths)).toMatchObject({ read: true, list: true });
  });

  it('leaves out a reference to another collection that the create does not require', async () => {
    const linked = { type: 'object', properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' }, site_id: { type: 'string' } } };
    const sites = {
      '/sites': { get: { operationId: 'listSites', responses: { 200: json({ type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } }) } } },
    };
    expect(await tripOn(notes(json(linked), json({ type: 'array', items: linked }), { body: linked, record: linked, extra: sites }))).toMatchObject({ created: 201, read: true, list: true });
  });

  it('writes the marker to a member the record holds as text, not one it holds as a number', async () => {
    const held = { type: 'object', properties: { id: { type: 'string', readOnly: true }, kind: { type: 'integer' }, text: { type: 'string' } } };
    const body = { type: 'object', properties: { kind: { type: 'string' }, text: { type: 'string' } } };
    expect(await tripOn(notes(json(held), json({ type: 'array', items: held }), { body, record: held }))).toMatchObject({ tried: 'notes.text', read: true, list: true });
  });

  it('does not try a create documented to answer only a boolean', async () => {
    expect(await tripOn(notes(json({ type: 'boolean' })))).toEqual({});
  });
});
