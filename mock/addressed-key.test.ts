import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { bearer, call } from '../test/in-process.js';
import { createMock } from './index.js';

/**
 * A parent the server owns, named in paths by a member other than its integer `id` (spec/DECISIONS.md › D300,
 * D301, D304): organizations read at `/orgs/{org}` by their `login`, as the example's own `url` shows, with an
 * example written before the schema gained a required `archived_at`; teams under them by their `slug`; and a
 * `POST …/archive` that answers the team it acts on.
 */
const org = {
  type: 'object',
  required: ['login', 'id', 'url', 'archived_at'],
  properties: { login: { type: 'string' }, id: { type: 'integer' }, url: { type: 'string', format: 'uri' }, name: { type: ['string', 'null'] }, archived_at: { type: ['string', 'null'], format: 'date-time' } },
};
const team = { type: 'object', required: ['id', 'slug', 'url', 'name'], properties: { id: { type: 'integer' }, slug: { type: 'string' }, url: { type: 'string' }, name: { type: 'string' } } };
const orgParameter = { name: 'org', in: 'path', required: true, description: 'The organization name.', schema: { type: 'string' } };
const teamParameter = { name: 'team_slug', in: 'path', required: true, schema: { type: 'string' } };
const json = (schema: object, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { examples: { default: { value: example } } }) } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'Organizations', version: '1' },
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/orgs/{org}': {
      get: { operationId: 'getOrg', parameters: [orgParameter], responses: { '200': { description: 'ok', content: json(org, { login: 'acme', id: 7, url: 'https://api.example.com/orgs/acme', name: 'acme' }) }, '404': { description: 'missing' } } },
      patch: { operationId: 'updateOrg', parameters: [orgParameter], requestBody: { content: json({ type: 'object', properties: { name: { type: 'string' } } }) }, responses: { '200': { description: 'ok', content: json(org) } } },
    },
    '/orgs/{org}/teams': {
      get: { operationId: 'listTeams', parameters: [orgParameter], responses: { '200': { description: 'ok', content: json({ type: 'array', items: team }) } } },
      post: { operationId: 'createTeam', parameters: [orgParameter], requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) }, responses: { '201': { description: 'made', content: json(team) } } },
    },
    '/orgs/{org}/teams/{team_slug}': {
      get: { operationId: 'getTeam', parameters: [orgParameter, teamParameter], responses: { '200': { description: 'ok', content: json(team, { id: 3, slug: 'core', url: 'https://api.example.com/orgs/acme/teams/core', name: 'Core' }) }, '404': { description: 'missing' } } },
      delete: { operationId: 'deleteTeam', parameters: [orgParameter, teamParameter], responses: { '204': { description: 'gone' } } },
    },
    '/orgs/{org}/teams/{team_slug}/archive': {
      post: { operationId: 'archiveTeam', parameters: [orgParameter, teamParameter], requestBody: { content: json({ type: 'object', properties: { reason: { type: 'string' } } }) }, responses: { '200': { description: 'ok', content: json(team) } } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'harness-addressed-key-'));
writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
const model = await loadModel(join(dir, 'openapi.json'));
const mock = await createMock({ spec: join(dir, 'openapi.json'), apiKeys: ['k'] });
rmSync(dir, { recursive: true, force: true });
const headers = bearer('k');

describe('the key member an example address shows (D300)', () => {
  it("organizations are keyed by the member the example's url shows in `{org}`, teams by theirs in `{team_slug}`", () => {
    const orgs = model.resources.find((resource) => resource.itemPath === '/orgs/{org}');
    const teams = model.resources.find((resource) => resource.itemPath === '/orgs/{org}/teams/{team_slug}');
    expect([orgs?.idProperty, orgs?.idType]).toEqual(['login', 'string']);
    expect(teams?.idProperty).toBe('slug');
  });

  it('an action on a parent that answers the parent itself is no collection of its own (D304)', () => {
    const archive = model.operations.find((op) => op.operationId === 'archiveTeam');
    expect(archive?.resource).toBeUndefined();
    expect(model.resources.some((resource) => resource.collectionPath.endsWith('/archive'))).toBe(false);
  });
});

describe('a starting record from an example that leaves out a required member (D301)', () => {
  it('the organization the example shows is served at its login, the missing member filled', () => {
    const read = call(mock.handle, { url: '/orgs/acme', headers });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ login: 'acme', id: 7, name: 'acme' });
    expect(read.json).toHaveProperty('archived_at');
    expect(call(mock.handle, { url: '/orgs/7', headers }).status).toBe(404);
  });

  it('teams are made and read under that organization', () => {
    const made = call(mock.handle, { method: 'POST', url: '/orgs/acme/teams', headers: bearer('k', { 'content-type': 'application/json' }), body: '{"name":"Platform"}' });
    expect(made.status).toBe(201);
    expect(call(mock.handle, { url: `/orgs/acme/teams/${String(made.json.slug)}`, headers }).status).toBe(200);
    expect(call(mock.handle, { url: `/orgs/other/teams/${String(made.json.slug)}`, headers }).status).toBe(404);
  });
});
