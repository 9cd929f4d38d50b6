import { describe, expect, it } from 'vitest';
import { createLogger, createMock, DEFAULT_API_KEY, startMock } from './index.js';
import type { MockRequest } from './index.js';

/**
 * Security: the admin API is never reachable with an API key alone once it has a token; keys never
 * reach the request log, the journal or an answer; the journal is bounded. (The constant-time comparison of
 * API keys is `sameKey` in bearer.ts, every accepted key compared each time; the admin token's is SHA-256
 * digests compared with `timingSafeEqual` in admin.ts.)
 */

const ADMIN_TOKEN = 'admin-token-for-tests';
const API_KEY = `Bearer ${DEFAULT_API_KEY}`;
const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/__admin'],
  ['POST', '/__admin/reset'],
  ['GET', '/__admin/pets'],
  ['PUT', '/__admin/pets'],
  ['GET', '/__admin/requests'],
  ['DELETE', '/__admin/requests'],
  ['GET', '/__admin/unknown'],
  ['HEAD', '/__admin/pets'],
];

describe('admin API guarded by a token', () => {
  it.each(ADMIN_ROUTES)('%s %s with the API key alone (or none, or a wrong token): 401 ADMIN_UNAUTHORIZED, nothing changed', async (method, url) => {
    const mock = await createMock({ adminToken: ADMIN_TOKEN });
    const before = mock.store.all().join('\n');
    for (const authorization of [API_KEY, undefined, 'Bearer wrong', `Bearer ${ADMIN_TOKEN}x`, `Basic ${ADMIN_TOKEN}`, ADMIN_TOKEN]) {
      const request: MockRequest = {
        method,
        url,
        headers: { ...(authorization === undefined ? {} : { authorization }), 'content-type': 'application/json', 'x-petstore-key': DEFAULT_API_KEY },
        body: Buffer.from('[]'),
      };
      const response = mock.handle(request);
      expect(response.status, `${authorization}`).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'ADMIN_UNAUTHORIZED', status: 401 });
      expect(response.body).not.toContain(ADMIN_TOKEN);
    }
    expect(mock.store.all().join('\n')).toBe(before);
  });

  it('the admin token opens it, and is no API key', async () => {
    const mock = await createMock({ adminToken: ADMIN_TOKEN });
    expect(mock.handle({ method: 'GET', url: '/__admin/pets', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }).status).toBe(200);
    const asApiKey = mock.handle({ method: 'GET', url: '/v1/pets', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(asApiKey.status).toBe(401);
  });

  it('an admin token equal to an API key is refused at start', async () => {
    await expect(createMock({ adminToken: DEFAULT_API_KEY })).rejects.toThrow(/differ/);
  });

  it('--no-admin: every /__admin path is a 404 Error, whatever the credentials', async () => {
    const mock = await createMock({ admin: false, adminToken: ADMIN_TOKEN });
    for (const [method, url] of ADMIN_ROUTES) {
      const response = mock.handle({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.status).toBe(404);
    }
  });
});

describe('keys are never logged, journaled or echoed', () => {
  it('the request log and the journal hold no key, valid or not', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
    const mock = await startMock({ port: 0, logger, adminToken: ADMIN_TOKEN, journalSize: 5 });
    try {
      const secrets = [DEFAULT_API_KEY, 'wrong-secret-key-123', ADMIN_TOKEN];
      const sends: [string, string, string][] = [
        ['GET', '/v1/pets', `Bearer ${DEFAULT_API_KEY}`],
        ['GET', '/v1/pets', 'Bearer wrong-secret-key-123'],
        ['POST', '/v1/pets', `Bearer ${DEFAULT_API_KEY}`],
        ['GET', '/v1/pets/1', `Bearer ${DEFAULT_API_KEY}`],
        ['GET', '/__admin/pets', `Bearer ${DEFAULT_API_KEY}`],
      ];
      for (let round = 0; round < 4; round++) {
        for (const [method, url, authorization] of sends) {
          const response = await fetch(`${mock.origin}${url}`, {
            method,
            headers: { authorization, 'content-type': 'application/json', cookie: `session=${DEFAULT_API_KEY}`, 'x-petstore-key': DEFAULT_API_KEY },
            ...(method === 'POST' ? { body: '{"name":"Rex","categoryId":1}' } : {}),
          });
          const text = await response.text();
          for (const secret of secrets) expect(text).not.toContain(secret);
          for (const value of response.headers.values()) for (const secret of secrets) expect(value).not.toContain(secret);
        }
      }
      const journal = await fetch(`${mock.origin}/__admin/requests`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const entries = (await journal.json()) as unknown[];
      expect(entries.length).toBeLessThanOrEqual(5);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines.length).toBeGreaterThanOrEqual(20);
      const everything = `${lines.join('')}${JSON.stringify(entries)}`;
      for (const secret of secrets) expect(everything).not.toContain(secret);
    } finally {
      await mock.close();
    }
  });

  it('the journal stays bounded under many requests', async () => {
    const mock = await createMock({ journalSize: 10 });
    for (let i = 0; i < 5_000; i++) mock.handle({ method: 'GET', url: `/v1/pets?limit=${(i % 100) + 1}`, headers: { authorization: API_KEY } });
    const entries = JSON.parse(mock.handle({ method: 'GET', url: '/__admin/requests', headers: {} }).body) as { url: string }[];
    expect(entries).toHaveLength(10);
    expect(entries[0]!.url).toBe('/v1/pets?limit=100');
  });
});
