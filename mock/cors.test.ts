import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY, loadApi, startMock, type Api, type Mock } from './index.js';

/** CORS (README › CORS): preflights for any path without a key, and the CORS headers on every answer, errors too. */

const PAGE = 'http://localhost:5173';
let api: Api;
let mock: Mock;

beforeAll(async () => {
  api = await loadApi();
  mock = await createMock({ api });
});

const preflight = (origin: string, method = 'POST', requested = 'authorization,content-type') => ({
  method: 'OPTIONS',
  url: '/v1/pets',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requested },
});

describe('CORS on by default (any origin)', () => {
  it('answers a preflight with 204, no key needed, allowing the methods and the asked headers', () => {
    const response = call(mock.handle, preflight(PAGE));
    expect(response.status).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-max-age': '600',
    });
    expect(response.headers['access-control-allow-methods']).toContain('POST');
  });

  it('allows Authorization, Content-Type and Prefer when the preflight names no headers', () => {
    const response = call(mock.handle, { method: 'OPTIONS', url: '/v1/pets/1', headers: { origin: PAGE, 'access-control-request-method': 'GET' } });
    expect(response.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Prefer');
  });

  it('answers preflights for any path, the admin API and unknown paths included', () => {
    for (const url of ['/__admin/reset', '/nowhere', '/v1/pets/abc']) {
      expect(call(mock.handle, { ...preflight(PAGE), url }).status, url).toBe(204);
    }
  });

  it('allows a private-network request from a public page (Chrome Private Network Access)', () => {
    const request = preflight('https://preview.example.com');
    const response = call(mock.handle, { ...request, headers: { ...request.headers, 'access-control-request-private-network': 'true' } });
    expect(response.headers['access-control-allow-private-network']).toBe('true');
  });

  it('puts the CORS headers on successes, errors and admin answers, and exposes Deprecation and Sunset', () => {
    const answers = [
      call(mock.handle, { headers: bearer(DEFAULT_API_KEY, { origin: PAGE }) }),
      call(mock.handle, { url: '/v1/pets/1', headers: bearer(DEFAULT_API_KEY, { origin: PAGE }) }),
      call(mock.handle, { headers: { origin: PAGE } }),
      call(mock.handle, { url: '/v1/pets/999', headers: bearer(DEFAULT_API_KEY, { origin: PAGE }) }),
      call(mock.handle, { url: '/elsewhere', headers: { origin: PAGE } }),
      call(mock.handle, { url: '/__admin/requests', headers: { origin: PAGE } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 404, 404, 200]);
    for (const answer of answers) {
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['access-control-expose-headers']).toMatch(/Deprecation.*Sunset.*Location/);
    }
  });

  it('keeps a plain OPTIONS (no Access-Control-Request-Method) as the pipeline answers it: 204 with Allow', () => {
    const response = call(mock.handle, { method: 'OPTIONS', url: '/v1/pets' });
    expect(response.status).toBe(204);
    expect(response.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('CORS with a list of origins', () => {
  let listed: Mock;
  beforeAll(async () => {
    listed = await createMock({ api, corsOrigins: [PAGE, 'http://127.0.0.1:3000'] });
  });

  it('reflects a listed origin with Vary: Origin', () => {
    const response = call(listed.handle, { headers: bearer(DEFAULT_API_KEY, { origin: PAGE }) });
    expect(response.headers).toMatchObject({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
    expect(call(listed.handle, preflight(PAGE)).headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('gives an unlisted origin no allow-origin, so the browser blocks the read (the request itself is still answered)', () => {
    const response = call(listed.handle, { headers: bearer(DEFAULT_API_KEY, { origin: 'http://evil.test' }) });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const refused = call(listed.handle, preflight('http://evil.test'));
    expect(refused.status).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('CORS off', () => {
  it('sends no CORS header, and a preflight is the pipeline\'s plain OPTIONS', async () => {
    const off = await createMock({ api, corsOrigins: false });
    const response = call(off.handle, { headers: bearer(DEFAULT_API_KEY, { origin: PAGE }) });
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(call(off.handle, preflight(PAGE)).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('answers of the HTTP adapter itself', () => {
  it('a 413 for a body over --max-body-bytes carries the CORS headers too, so a page can read it', async () => {
    const served = await startMock({ api, port: 0, maxBodyBytes: 100 });
    try {
      const response = await fetch(`${served.baseUrl}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', origin: PAGE },
        body: JSON.stringify({ name: 'x'.repeat(500), categoryId: 1 }),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    } finally {
      await served.close();
    }
  });
});
