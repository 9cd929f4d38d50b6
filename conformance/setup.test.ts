import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCheck, runSuite, type CheckOutcome } from './run-suite.js';
import { modelOf } from './contract.js';
import { reachOf, type CheckReach } from './report/reach.js';
import type { Target } from './target.js';

/**
 * The suite's set-up (spec/DECISIONS.md › D160-D165): parents that can only be read, set-up writes the target
 * refuses, values no schema branch admits, path parameters that name a member other than the id. Each case is a
 * small spec written here and a small server written here, so what the suite sends is seen request by request.
 */

const KEY = 'setup-key-0123456789';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Json = Record<string, unknown>;
/** What a test server answers: a status and a JSON body (`undefined`: no body). */
type Answer = [number, unknown?];
type Handler = (method: string, segments: string[], body: Json | undefined, query: URLSearchParams) => Answer;

/** A server on a free port that refuses requests without the key (401) and answers others with `handle`; every request path is logged. */
async function serve(handle: Handler): Promise<{ baseUrl: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://test');
      paths.push(`${request.method} ${url.pathname}`);
      let answer: Answer;
      if (request.headers.authorization !== `Bearer ${KEY}`) answer = [401, { message: 'unauthorized' }];
      else {
        let body: Json | undefined;
        try {
          body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
        } catch {
          answer = [400, { message: 'not JSON' }];
        }
        answer ??= handle(request.method ?? 'GET', url.pathname.split('/').slice(1), body, url.searchParams);
      }
      const [status, payload] = answer;
      response.writeHead(status, payload === undefined ? {} : { 'content-type': 'application/json' });
      response.end(payload === undefined ? undefined : JSON.stringify(payload));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return { baseUrl, paths };
}

/** Writes `spec` to a temporary file (removed after the test) and returns the suite's target for `baseUrl`. */
function targetOf(spec: Json, baseUrl: string): Target {
  const dir = mkdtempSync(join(tmpdir(), 'suite-setup-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(spec));
  return { baseUrl, apiKey: KEY, spec: file, runs: 3 };
}

const error = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ok = (schema: unknown, description = 'ok'): Json => ({ description, content: { 'application/json': { schema } } });
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const pathParam = (name: string, description: string, type = 'string'): Json => ({ name, in: 'path', required: true, description, schema: { type } });

/** A spec with `paths` and `schemas`, bearer security and the error shape `{message}`. */
function specOf(paths: Json, schemas: Json): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Set-up cases', version: '1.0.0' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }, ...schemas },
    },
  };
}

/** Orgs that can only be read (listed at /orgs, read by their `login`), with notes created under one. */
function orgSpec(): Json {
  const orgParam = pathParam('org', 'The login of the organization.');
  return specOf(
    {
      '/orgs': { get: { operationId: 'listOrgs', responses: { '200': ok({ type: 'array', items: ref('Org') }), '401': error } } },
      '/orgs/{org}': { get: { operationId: 'getOrg', parameters: [orgParam], responses: { '200': ok(ref('Org')), '401': error, '404': error } } },
      '/orgs/{org}/notes': {
        post: { operationId: 'createNote', parameters: [orgParam], requestBody: { required: true, content: { 'application/json': { schema: ref('NewNote') } } }, responses: { '201': ok(ref('Note')), '400': error, '401': error, '404': error } },
        get: { operationId: 'listNotes', parameters: [orgParam], responses: { '200': ok({ type: 'array', items: ref('Note') }), '401': error, '404': error } },
      },
      '/orgs/{org}/notes/{noteId}': { get: { operationId: 'getNote', parameters: [orgParam, pathParam('noteId', 'The note.', 'integer')], responses: { '200': ok(ref('Note')), '401': error, '404': error } } },
    },
    {
      Org: { type: 'object', required: ['id', 'login'], properties: { id: { type: 'integer' }, login: { type: 'string' } } },
      NewNote: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 40 } }, additionalProperties: false },
      Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', maxLength: 40 } } },
    },
  );
}

/** A server of {@link orgSpec}: `orgs` are the organizations it lists; notes are kept per organization. */
function orgServer(orgs: { id: number; login: string }[]): Handler {
  const notes = new Map<string, Json[]>();
  return (method, [first, org, sub, noteId], body) => {
    if (first !== 'orgs') return [404, { message: 'no such path' }];
    if (org === undefined) return [200, orgs];
    const found = orgs.find((candidate) => candidate.login === org);
    if (found === undefined) return [404, { message: `no organization ${org}` }];
    if (sub === undefined) return [200, found];
    const held = notes.get(org) ?? [];
    notes.set(org, held);
    if (noteId !== undefined) return held.find((note) => String(note['id']) === noteId) === undefined ? [404, { message: 'no such note' }] : [200, held.find((note) => String(note['id']) === noteId)];
    if (method === 'GET') return [200, held];
    if (typeof body?.['text'] !== 'string' || body['text'].length > 40 || Object.keys(body).length !== 1) return [400, { message: 'invalid note' }];
    const note = { id: held.length + 1, text: body['text'] };
    held.push(note);
    return [201, note];
  };
}

function expectNotRun(outcome: CheckOutcome): string {
  expect(outcome).toMatchObject({ ok: true });
  const skipped = outcome.ok ? outcome.skipped : undefined;
  expect(skipped, 'the check was run').toBeDefined();
  return skipped!;
}

function expectPassed(outcome: CheckOutcome): void {
  expect(outcome.ok ? '' : outcome.report).toBe('');
  expect(outcome.ok ? outcome.skipped : undefined).toBeUndefined();
}

/** No request of the run had an empty path segment (D161). */
function expectNoEmptySegment(paths: readonly string[]): void {
  expect(paths.filter((path) => path.split(' ')[1]!.slice(1).split('/').includes(''))).toEqual([]);
}

describe('the reach report of a run whose set-up could not be made (D160)', () => {
  test('shows the checks under the missing parent as skipped with the reason, and its authentication check as run', async () => {
    const { baseUrl } = await serve(orgServer([]));
    const target = targetOf(orgSpec(), baseUrl);
    const model = await modelOf(target.spec!);
    const run = await runSuite(model, target, { checks: ['getNote.found', 'auth.createNote', 'auth.listOrgs'] });
    const reach = reachOf(model, [], run.checks);
    const checksOf = (operationId: string): CheckReach[] => reach.operations.find((operation) => operation.operationId === operationId)!.checks;
    expect(checksOf('getNote')).toEqual([expect.objectContaining({ id: 'getNote.found', state: 'skipped', reasons: [expect.stringMatching(/set-up: no orgs record/)] })]);
    expect(checksOf('createNote')).toEqual([expect.objectContaining({ id: 'auth.createNote', state: 'passed' })]);
    expect(checksOf('listOrgs')).toEqual([expect.objectContaining({ id: 'auth.listOrgs', state: 'passed' })]);
  });
});

describe('a parent that can only be read (D161, D163)', () => {
  test('is found from its list by the member its path parameter names (login, not id), confirmed by a read, and the checks under it run', async () => {
    const { baseUrl, paths } = await serve(orgServer([{ id: 7, login: 'acme' }]));
    const target = targetOf(orgSpec(), baseUrl);
    expectPassed(await runCheck('getNote.found', target));
    expect(paths).toContain('GET /orgs/acme');
    expect(paths).toContain('POST /orgs/acme/notes');
    expect(paths.some((path) => path.startsWith('POST /orgs/7'))).toBe(false);
    expectNoEmptySegment(paths);
  });

  test('none to be found: only the checks under it are not run, with the reason; its authentication and the other checks still run', async () => {
    const { baseUrl, paths } = await serve(orgServer([]));
    const target = targetOf(orgSpec(), baseUrl);
    expect(expectNotRun(await runCheck('getNote.found', target))).toMatch(/set-up: no orgs record could be made or found/);
    expect(expectNotRun(await runCheck('createNote.echo', target))).toMatch(/orgs/);
    expectPassed(await runCheck('auth.createNote', target));
    expectPassed(await runCheck('auth.listNotes', target));
    expectPassed(await runCheck('auth.listOrgs', target));
    expect(paths.some((path) => path.startsWith('POST /orgs/') && path.endsWith('/notes'))).toBe(true);
    expectNoEmptySegment(paths);
  });
});

/** Teams made by a create (an optional `motto`) with members under each; `refuse` decides the team creates' answers. */
function teamSpec(): Json {
  const teamParam = pathParam('teamId', 'The team.', 'integer');
  return specOf(
    {
      '/teams': {
        post: { operationId: 'createTeam', requestBody: { required: true, content: { 'application/json': { schema: ref('NewTeam') } } }, responses: { '201': ok(ref('Team')), '400': error, '401': error, '422': error } },
        get: { operationId: 'listTeams', responses: { '200': ok({ type: 'array', items: ref('Team') }), '401': error } },
      },
      '/teams/{teamId}': { get: { operationId: 'getTeam', parameters: [teamParam], responses: { '200': ok(ref('Team')), '401': error, '404': error } } },
      '/teams/{teamId}/members': {
        post: { operationId: 'addMember', parameters: [teamParam], requestBody: { required: true, content: { 'application/json': { schema: ref('NewMember') } } }, responses: { '201': ok(ref('Member')), '400': error, '401': error, '404': error } },
      },
      '/teams/{teamId}/members/{memberId}': { get: { operationId: 'getMember', parameters: [teamParam, pathParam('memberId', 'The member.', 'integer')], responses: { '200': ok(ref('Member')), '401': error, '404': error } } },
    },
    {
      NewTeam: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 30 }, motto: { type: 'string', maxLength: 30 } }, additionalProperties: false },
      Team: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 30 }, motto: { type: 'string', maxLength: 30 } } },
      NewMember: { type: 'object', required: ['nick'], properties: { nick: { type: 'string', maxLength: 30 } }, additionalProperties: false },
      Member: { type: 'object', required: ['id', 'nick'], properties: { id: { type: 'integer', readOnly: true }, nick: { type: 'string', maxLength: 30 } } },
    },
  );
}

function teamServer(refuse: (body: Json) => Answer | undefined): Handler {
  const teams: Json[] = [];
  const members = new Map<string, Json[]>();
  return (method, [first, teamId, sub, memberId], body) => {
    if (first !== 'teams') return [404, { message: 'no such path' }];
    if (teamId === undefined) {
      if (method === 'GET') return [200, teams];
      const refused = refuse(body ?? {});
      if (refused !== undefined) return refused;
      const team = { ...body, id: teams.length + 1 };
      teams.push(team);
      return [201, team];
    }
    const team = teams.find((candidate) => String(candidate['id']) === teamId);
    if (team === undefined) return [404, { message: 'no such team' }];
    if (sub === undefined) return [200, team];
    const held = members.get(teamId) ?? [];
    members.set(teamId, held);
    if (memberId !== undefined) {
      const member = held.find((candidate) => String(candidate['id']) === memberId);
      return member === undefined ? [404, { message: 'no such member' }] : [200, member];
    }
    if (typeof body?.['nick'] !== 'string' || body['nick'].length > 30) return [400, { message: 'invalid member' }];
    const member = { id: held.length + 1, nick: body['nick'] };
    held.push(member);
    return [201, member];
  };
}

describe('a set-up write the target refuses (D162)', () => {
  test('a 4xx to the first body is retried with other valid bodies (optional members left out) and the checks under it run', async () => {
    const { baseUrl } = await serve(teamServer((body) => (Object.hasOwn(body, 'motto') ? [422, { message: 'mottos are closed' }] : undefined)));
    const target = targetOf(teamSpec(), baseUrl);
    expectPassed(await runCheck('getMember.found', target));
  });

  test('a 4xx to every body: the checks under it are not run, with the server answer as the reason; the others run', async () => {
    const { baseUrl } = await serve(teamServer((body) => (typeof body['name'] === 'string' ? [422, { message: 'team quota exceeded' }] : [400, { message: 'name is required' }])));
    const target = targetOf(teamSpec(), baseUrl);
    const reason = expectNotRun(await runCheck('getMember.found', target));
    expect(reason).toMatch(/422/);
    expect(reason).toMatch(/team quota exceeded/);
    expectPassed(await runCheck('auth.addMember', target));
    expectPassed(await runCheck('createTeam.required-fields', target));
    // It reads an absent team; a record it would create first is refused: not run, or passed, never failed.
    expect(await runCheck('getTeam.not-found', target)).toMatchObject({ ok: true });
  });

  test('a 5xx to a set-up write is the target failure, not a skip', async () => {
    const { baseUrl } = await serve(teamServer(() => [500, { message: 'boom' }]));
    const target = targetOf(teamSpec(), baseUrl);
    const outcome = await runCheck('getMember.found', target);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.report).toMatch(/500/);
  });
});

describe('values no schema branch admits (D160)', () => {
  test('a create whose body needs a value no oneOf branch admits is not run, with the reason, never a thrown error', async () => {
    const spec = teamSpec();
    const schemas = (spec['components'] as { schemas: Record<string, Json> }).schemas;
    schemas['NewTeam'] = { type: 'object', required: ['name', 'size'], properties: { name: { type: 'string' }, size: { type: 'string', oneOf: [{ type: 'integer' }, { type: 'boolean' }] } } };
    const { baseUrl, paths } = await serve(teamServer(() => undefined));
    const target = targetOf(spec, baseUrl);
    expect(expectNotRun(await runCheck('createTeam.echo', target))).toMatch(/admits no value/);
    expect(expectNotRun(await runCheck('getMember.found', target))).toMatch(/admits no value/);
    expect(paths.filter((path) => path === 'POST /teams')).toEqual([]);
  });
});

describe('references by the spec names (D163)', () => {
  test('{board_number} is filled with the board number, not its id', async () => {
    const boardParam = pathParam('board_number', 'The number that identifies the board.', 'integer');
    const spec = specOf(
      {
        '/boards': {
          post: { operationId: 'createBoard', requestBody: { required: true, content: { 'application/json': { schema: ref('NewBoard') } } }, responses: { '201': ok(ref('Board')), '400': error, '401': error } },
          get: { operationId: 'listBoards', responses: { '200': ok({ type: 'array', items: ref('Board') }), '401': error } },
        },
        '/boards/{board_number}': { get: { operationId: 'getBoard', parameters: [boardParam], responses: { '200': ok(ref('Board')), '401': error, '404': error } } },
        '/boards/{board_number}/cards': {
          post: { operationId: 'addCard', parameters: [boardParam], requestBody: { required: true, content: { 'application/json': { schema: ref('NewMember') } } }, responses: { '201': ok(ref('Member')), '400': error, '401': error, '404': error } },
        },
        '/boards/{board_number}/cards/{cardId}': { get: { operationId: 'getCard', parameters: [boardParam, pathParam('cardId', 'The card.', 'integer')], responses: { '200': ok(ref('Member')), '401': error, '404': error } } },
      },
      {
        NewBoard: { type: 'object', required: ['title'], properties: { title: { type: 'string', maxLength: 30 } }, additionalProperties: false },
        Board: { type: 'object', required: ['id', 'number', 'title'], properties: { id: { type: 'integer', readOnly: true }, number: { type: 'integer', readOnly: true }, title: { type: 'string', maxLength: 30 } } },
        NewMember: { type: 'object', required: ['nick'], properties: { nick: { type: 'string', maxLength: 30 } }, additionalProperties: false },
        Member: { type: 'object', required: ['id', 'nick'], properties: { id: { type: 'integer', readOnly: true }, nick: { type: 'string', maxLength: 30 } } },
      },
    );
    // Boards are addressed by their number; ids are far apart from numbers, so a mix-up cannot read.
    const boards: Json[] = [];
    const cards = new Map<string, Json[]>();
    const { baseUrl, paths } = await serve((method, [first, number, sub, cardId], body) => {
      if (first !== 'boards') return [404, { message: 'no such path' }];
      if (number === undefined) {
        if (method === 'GET') return [200, boards];
        if (typeof body?.['title'] !== 'string' || body['title'].length > 30) return [400, { message: 'invalid board' }];
        const board = { id: 9000 + boards.length, number: boards.length + 1, title: body['title'] };
        boards.push(board);
        return [201, board];
      }
      const board = boards.find((candidate) => String(candidate['number']) === number);
      if (board === undefined) return [404, { message: 'no such board' }];
      if (sub === undefined) return [200, board];
      const held = cards.get(number) ?? [];
      cards.set(number, held);
      if (cardId !== undefined) {
        const card = held.find((candidate) => String(candidate['id']) === cardId);
        return card === undefined ? [404, { message: 'no such card' }] : [200, card];
      }
      if (typeof body?.['nick'] !== 'string' || body['nick'].length > 30) return [400, { message: 'invalid card' }];
      const card = { id: held.length + 1, nick: body['nick'] };
      held.push(card);
      return [201, card];
    });
    const target = targetOf(spec, baseUrl);
    expectPassed(await runCheck('getCard.found', target));
    expect(paths.some((path) => /^POST \/boards\/\d+\/cards$/.test(path) && !path.includes('/boards/9'))).toBe(true);
    expect(paths.some((path) => path.startsWith('POST /boards/9'))).toBe(false);
  });
});

describe('a body member naming a record (D95, D163)', () => {
  test('petId is filled with a pet the target holds, made before use; never a drawn number', async () => {
    const spec = specOf(
      {
        '/pets': {
          post: { operationId: 'createPet', requestBody: { required: true, content: { 'application/json': { schema: ref('NewPet') } } }, responses: { '201': ok(ref('Pet')), '400': error, '401': error } },
          get: { operationId: 'listPets', responses: { '200': ok({ type: 'array', items: ref('Pet') }), '401': error } },
        },
        '/pets/{petId}': { get: { operationId: 'getPet', parameters: [pathParam('petId', 'The pet.', 'integer')], responses: { '200': ok(ref('Pet')), '401': error, '404': error } } },
        '/adoptions': {
          post: { operationId: 'createAdoption', requestBody: { required: true, content: { 'application/json': { schema: ref('NewAdoption') } } }, responses: { '201': ok(ref('Adoption')), '400': error, '401': error, '404': error } },
          get: { operationId: 'listAdoptions', responses: { '200': ok({ type: 'array', items: ref('Adoption') }), '401': error } },
        },
        '/adoptions/{adoptionId}': { get: { operationId: 'getAdoption', parameters: [pathParam('adoptionId', 'The adoption.', 'integer')], responses: { '200': ok(ref('Adoption')), '401': error, '404': error } } },
      },
      {
        NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 30 } }, additionalProperties: false },
        Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 30 } } },
        NewAdoption: { type: 'object', required: ['petId'], properties: { petId: { type: 'integer', description: 'The pet adopted.' } }, additionalProperties: false },
        Adoption: { type: 'object', required: ['id', 'petId'], properties: { id: { type: 'integer', readOnly: true }, petId: { type: 'integer' } } },
      },
    );
    const pets: Json[] = [];
    const adoptions: Json[] = [];
    const sentPetIds: unknown[] = [];
    const { baseUrl } = await serve((method, [first, id], body) => {
      const held = first === 'pets' ? pets : first === 'adoptions' ? adoptions : undefined;
      if (held === undefined) return [404, { message: 'no such path' }];
      if (id !== undefined) {
        const found = held.find((record) => String(record['id']) === id);
        return found === undefined ? [404, { message: 'not found' }] : [200, found];
      }
      if (method === 'GET') return [200, held];
      if (first === 'pets') {
        if (typeof body?.['name'] !== 'string' || body['name'].length > 30 || Object.keys(body).length !== 1) return [400, { message: 'invalid pet' }];
        const pet = { id: pets.length + 1, name: body['name'] };
        pets.push(pet);
        return [201, pet];
      }
      if (typeof body?.['petId'] !== 'number' || Object.keys(body).length !== 1) return [400, { message: 'invalid adoption' }];
      sentPetIds.push(body['petId']);
      if (!pets.some((pet) => pet['id'] === body['petId'])) return [404, { message: 'no such pet' }];
      const adoption = { id: adoptions.length + 1, petId: body['petId'] };
      adoptions.push(adoption);
      return [201, adoption];
    });
    const target = targetOf(spec, baseUrl);
    expectPassed(await runCheck('createAdoption.echo', target));
    expect(sentPetIds.length).toBeGreaterThan(0);
    expect(sentPetIds.every((petId) => pets.some((pet) => pet['id'] === petId))).toBe(true);
  });
});

describe('a parent only the spec examples name (D72, D161)', () => {
  /** Labels under a repository that only the read's example names (`ada/compiler`, among other texts and a URL). */
  function repoSpec(): Json {
    const params = [pathParam('owner', 'The account owner.'), pathParam('repo', 'The name of the repository.')];
    const example = { id: 1, name: 'compiler', full_name: 'ada/compiler', html_url: 'https://example.com/ada/compiler', owner: { login: 'ada' } };
    return specOf(
      {
        '/repos/{owner}/{repo}': { get: { operationId: 'getRepo', parameters: params, responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref('Repo'), example } } }, '401': error, '404': error } } },
        '/repos/{owner}/{repo}/labels': {
          post: { operationId: 'createLabel', parameters: params, requestBody: { required: true, content: { 'application/json': { schema: ref('NewMember') } } }, responses: { '201': ok(ref('Member')), '400': error, '401': error, '404': error } },
          get: { operationId: 'listLabels', parameters: params, responses: { '200': ok({ type: 'array', items: ref('Member') }), '401': error, '404': error } },
        },
        '/repos/{owner}/{repo}/labels/{labelId}': { get: { operationId: 'getLabel', parameters: [...params, pathParam('labelId', 'The label.', 'integer')], responses: { '200': ok(ref('Member')), '401': error, '404': error } } },
      },
      {
        Repo: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, full_name: { type: 'string' }, html_url: { type: 'string' }, owner: { type: 'object', properties: { login: { type: 'string' } } } } },
        NewMember: { type: 'object', required: ['nick'], properties: { nick: { type: 'string', maxLength: 30 } }, additionalProperties: false },
        Member: { type: 'object', required: ['id', 'nick'], properties: { id: { type: 'integer', readOnly: true }, nick: { type: 'string', maxLength: 30 } } },
      },
    );
  }

  function repoServer(held: string): Handler {
    const labels: Json[] = [];
    return (method, [first, owner, repo, sub, labelId], body) => {
      if (first !== 'repos' || `${owner}/${repo}` !== held) return [404, { message: 'no such repository' }];
      if (sub === undefined) return [200, { id: 1, name: repo, full_name: held }];
      if (labelId !== undefined) {
        const label = labels.find((candidate) => String(candidate['id']) === labelId);
        return label === undefined ? [404, { message: 'no such label' }] : [200, label];
      }
      if (method === 'GET') return [200, labels];
      if (typeof body?.['nick'] !== 'string' || body['nick'].length > 30) return [400, { message: 'invalid label' }];
      const label = { id: labels.length + 1, nick: body['nick'] };
      labels.push(label);
      return [201, label];
    };
  }

  test('the exemplified parent is read first; the target holding it gets the checks under it', async () => {
    const { baseUrl, paths } = await serve(repoServer('ada/compiler'));
    const target = targetOf(repoSpec(), baseUrl);
    expectPassed(await runCheck('getLabel.found', target));
    expect(paths).toContain('GET /repos/ada/compiler');
    expect(paths.some((path) => path.includes('https'))).toBe(false);
  });

  test('a target without it: the checks under it are not run, with the answer of the read', async () => {
    const { baseUrl, paths } = await serve(repoServer('someone/else'));
    const target = targetOf(repoSpec(), baseUrl);
    expect(expectNotRun(await runCheck('getLabel.found', target))).toMatch(/exemplifies, GET \/repos\/ada\/compiler, answered 404/);
    expect(paths.filter((path) => path.startsWith('POST'))).toEqual([]);
  });
});
