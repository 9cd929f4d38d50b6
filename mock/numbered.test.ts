import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { call, fixtureMock } from '../test/in-process.js';
import { PARENT_LINK, type ListModel } from '../model/model.js';
import { createMock, startMock, type StartedMock } from './index.js';
import { filterDefaults } from './list-handler.js';

/**
 * Resources as their description shapes them (spec/DECISIONS.md D240-D243), served from
 * mock/fixtures/numbered.openapi.yaml: numbers counted per parent and shared where both records name each other.
 */
const SPEC = join(PACKAGE_ROOT, 'mock', 'fixtures', 'numbered.openapi.yaml');
const { send, post, get } = await fixtureMock('numbered.openapi.yaml');
const patch = (url: string, body: unknown): ReturnType<typeof get> => send({ method: 'PATCH', url: `/api${url}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const numberOf = (answer: ReturnType<typeof get>): number => (answer.json as { number: number }).number;
const idOf = (answer: ReturnType<typeof get>): number => (answer.json as { id: number }).id;

describe('the model of keys counted per parent (D240)', () => {
  it('numbers issues, pull requests and milestones per repository; issues and pull requests share their numbers, milestones do not', async () => {
    const model = await loadModel(SPEC);
    const numbering = Object.fromEntries(model.resources.map((resource) => [resource.collectionPath.split('/').at(-1), resource.numbering]));
    expect(numbering['issues']?.storeKey).toBe('id');
    expect(numbering['issues']?.shared).toEqual([model.resources.find((resource) => resource.collectionPath.endsWith('/pulls'))!.name]);
    expect(numbering['pulls']?.shared).toEqual([model.resources.find((resource) => resource.collectionPath.endsWith('/issues'))!.name]);
    expect(numbering['milestones']).toEqual({ key: 'number', storeKey: 'id', shared: [] });
    // Keyed by their global id: no number in their paths.
    expect([numbering['repos'], numbering['comments']]).toEqual([undefined, undefined]);
  });
});

describe('keys counted per parent (D240)', () => {
  it('each repository numbers its issues from 1, and an issue is read at its number under its own repository only', () => {
    const owner = (post('/user/repos', { name: 'one' }).json as { owner: { login: string } }).owner.login;
    expect(post('/user/repos', { name: 'two' }).status).toBe(201);
    const one = [post(`/repos/${owner}/one/issues`, { title: 'A' }), post(`/repos/${owner}/one/issues`, { title: 'B' })];
    const two = [post(`/repos/${owner}/two/issues`, { title: 'C' })];
    expect([...one, ...two].map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(one.map(numberOf)).toEqual([1, 2]);
    expect(two.map(numberOf)).toEqual([1]);
    // Global ids stay distinct across repositories.
    expect(new Set([...one, ...two].map(idOf)).size).toBe(3);
    expect(get(`/repos/${owner}/one/issues/1`).json).toMatchObject({ number: 1, title: 'A' });
    expect(get(`/repos/${owner}/two/issues/1`).json).toMatchObject({ number: 1, title: 'C' });
    expect(get(`/repos/${owner}/two/issues/2`).status).toBe(404);
    expect(patch(`/repos/${owner}/two/issues/1`, { title: 'C2', state: 'closed' }).json).toMatchObject({ number: 1, title: 'C2', state: 'closed' });
    expect(get(`/repos/${owner}/one/issues/1`).json).toMatchObject({ number: 1, title: 'A', state: 'open' });
  });

  it('issues and pull requests of one repository share numbers; milestones count on their own', () => {
    const owner = (post('/user/repos', { name: 'shared' }).json as { owner: { login: string } }).owner.login;
    const issue = post(`/repos/${owner}/shared/issues`, { title: 'Bug' });
    const pull = post(`/repos/${owner}/shared/pulls`, { title: 'Fix', head: 'fix', base: 'main' });
    const next = post(`/repos/${owner}/shared/issues`, { title: 'Another' });
    const milestone = post(`/repos/${owner}/shared/milestones`, { title: 'v1' });
    expect([numberOf(issue), numberOf(pull), numberOf(next), numberOf(milestone)]).toEqual([1, 2, 3, 1]);
    expect(get(`/repos/${owner}/shared/pulls/2`).json).toMatchObject({ number: 2, title: 'Fix' });
    expect(get(`/repos/${owner}/shared/milestones/1`).json).toMatchObject({ number: 1, title: 'v1' });
  });

  it('a sub-resource of a numbered record lives under that repository\'s number only', () => {
    const owner = (post('/user/repos', { name: 'left' }).json as { owner: { login: string } }).owner.login;
    expect(post('/user/repos', { name: 'right' }).status).toBe(201);
    expect(numberOf(post(`/repos/${owner}/left/issues`, { title: 'L' }))).toBe(1);
    expect(numberOf(post(`/repos/${owner}/right/issues`, { title: 'R' }))).toBe(1);
    expect(post(`/repos/${owner}/left/issues/1/comments`, { body: 'on the left' }).status).toBe(201);
    expect((get(`/repos/${owner}/left/issues/1/comments`).json as { body: string }[]).map((comment) => comment.body)).toEqual(['on the left']);
    expect(get(`/repos/${owner}/right/issues/1/comments`).json).toEqual([]);
    expect(get(`/repos/${owner}/right/issues/2/comments`).status).toBe(404);
  });
});

describe('numbers after records loaded out of order (D240)', () => {
  it('a new number is never one a record under the parent holds', async () => {
    const model = await loadModel(SPEC);
    const repo = { id: 1, name: 'old', full_name: 'mona/old', owner: { login: 'mona', id: 7 }, private: false };
    const issue = (id: number, number: number): Record<string, unknown> => ({ id, number, title: `Issue ${number}`, state: 'open', [PARENT_LINK]: 'old' });
    const names = Object.fromEntries(model.resources.map((resource) => [resource.collectionPath.split('/').at(-1), resource.name]));
    // Loaded oldest first: number 5, then number 3, so the newest record does not hold the largest number.
    const mock = await createMock({ model, data: new Map([[names['repos']!, [repo]], [names['issues']!, [issue(1, 5), issue(2, 3)]]]) });
    const create = (): number => numberOf(call(mock.handle, { method: 'POST', url: '/api/repos/mona/old/issues', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'New' }) }));
    const made = [create(), create()];
    expect(made).toEqual([4, 6]);
    expect(new Set([3, 5, ...made]).size).toBe(4);
  });
});

describe('a pull request is an issue too (D244)', () => {
  it('is read and listed as an issue at its number, marked by pull_request, and closing that issue closes the pull request', async () => {
    const model = await loadModel(SPEC);
    const pulls = model.resources.find((resource) => resource.collectionPath.endsWith('/pulls'))!;
    const issues = model.resources.find((resource) => resource.collectionPath.endsWith('/issues'))!;
    expect([pulls.numbering?.alsoIn, issues.numbering?.marks]).toEqual([{ resource: issues.name, member: 'pull_request' }, { resource: pulls.name, member: 'pull_request' }]);
    const owner = (post('/user/repos', { name: 'twins' }).json as { owner: { login: string } }).owner.login;
    expect(numberOf(post(`/repos/${owner}/twins/issues`, { title: 'Bug' }))).toBe(1);
    const pull = post(`/repos/${owner}/twins/pulls`, { title: 'Fix the bug', head: 'fix', base: 'main' });
    expect(numberOf(pull)).toBe(2);
    const asIssue = get(`/repos/${owner}/twins/issues/2`);
    expect(asIssue.json).toMatchObject({ number: 2, title: 'Fix the bug', state: 'open', pull_request: {} });
    expect(idOf(asIssue)).not.toBe(idOf(pull));
    expect(get(`/repos/${owner}/twins/issues/1`).json).not.toHaveProperty('pull_request');
    expect((get(`/repos/${owner}/twins/issues`).json as { number: number }[]).map((issue) => issue.number).sort()).toEqual([1, 2]);
    expect((get(`/repos/${owner}/twins/pulls?state=all`).json as { number: number }[]).map((one) => one.number)).toEqual([2]);
    expect(patch(`/repos/${owner}/twins/issues/2`, { state: 'closed' }).json).toMatchObject({ state: 'closed' });
    expect(get(`/repos/${owner}/twins/pulls/2`).json).toMatchObject({ number: 2, state: 'closed' });
    // A plain issue closed leaves the pull requests alone.
    expect(patch(`/repos/${owner}/twins/issues/1`, { state: 'closed', title: 'Bug (done)' }).status).toBe(200);
    expect(get(`/repos/${owner}/twins/pulls/2`).json).toMatchObject({ title: 'Fix the bug' });
  });
});

describe('a record created for the caller and addressed by its owner and name (D241, D242)', () => {
  it('the repository\'s owner is the caller GET /user shows, and its full_name is that login and its name, not the example\'s', () => {
    const me = get('/user').json as { login: string; id: number };
    expect(me.login).toBe('mona');
    const created = post('/user/repos', { name: 'tools' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'tools', full_name: 'mona/tools', owner: { login: 'mona', id: me.id } });
    expect(get('/repos/mona/tools').json).toMatchObject({ name: 'tools', full_name: 'mona/tools', owner: { login: 'mona' } });
    expect(get('/repos/octocat/tools').status).toBe(404);
  });

  it('an issue\'s html_url is its own repository\'s and its own number, as its read\'s example spells it from its repository\'s example', () => {
    expect(post('/user/repos', { name: 'site' }).json).toMatchObject({ html_url: 'https://example.com/mona/site' });
    expect(post('/repos/mona/site/issues', { title: 'A' }).json).toMatchObject({ number: 1, html_url: 'https://example.com/mona/site/issues/1' });
    expect(get('/repos/mona/site/issues/1').json).toMatchObject({ html_url: 'https://example.com/mona/site/issues/1' });
    expect(patch('/repos/mona/site/issues/1', { title: 'A2' }).json).toMatchObject({ title: 'A2', html_url: 'https://example.com/mona/site/issues/1' });
  });

  it('repositories keyed by their name each get an id of their own, kept by the read, never the example\'s (D246)', () => {
    const ids = ['one-id', 'two-id'].map((name) => idOf(post('/user/repos', { name })));
    expect(new Set(ids).size).toBe(2);
    expect(ids).not.toContain(1296269);
    expect(idOf(get('/repos/mona/one-id'))).toBe(ids[0]);
  });

  it('a key of one digit is spelled where the example shows it as a path segment: milestone 2\'s url ends in /milestones/2', () => {
    post('/user/repos', { name: 'plan' });
    expect(post('/repos/mona/plan/milestones', { title: 'v1', open_issues: 0 }).json).toMatchObject({ number: 1, url: 'https://example.com/mona/plan/milestones/1' });
    expect(post('/repos/mona/plan/milestones', { title: 'v2', open_issues: 0 }).json).toMatchObject({ number: 2, url: 'https://example.com/mona/plan/milestones/2' });
  });
});

describe('a filter\'s documented default (D243)', () => {
  it('a list that names no state lists the default\'s records: a closed issue leaves it, state=all and state=closed show it', () => {
    const owner = (post('/user/repos', { name: 'states' }).json as { owner: { login: string } }).owner.login;
    const numbers = ['A', 'B', 'C'].map((title) => numberOf(post(`/repos/${owner}/states/issues`, { title })));
    expect(patch(`/repos/${owner}/states/issues/${numbers[1]}`, { state: 'closed' }).status).toBe(200);
    const listed = (query: string): number[] => (get(`/repos/${owner}/states/issues${query}`).json as { number: number }[]).map((issue) => issue.number).sort((x, y) => x - y);
    expect(listed('')).toEqual([numbers[0], numbers[2]]);
    expect(listed('?state=open')).toEqual([numbers[0], numbers[2]]);
    expect(listed('?state=closed')).toEqual([numbers[1]]);
    expect(listed('?state=all')).toEqual(numbers);
  });

  it('is read from the parameter\'s schema: the default of an enum filter, never an `all` or an unset value', async () => {
    const model = await loadModel(SPEC);
    const issues = model.resources.find((resource) => resource.collectionPath.endsWith('/issues'))!;
    expect(filterDefaults(issues.list!)).toEqual([['state', 'open']]);
    const filter = issues.list!.filters.find((one) => one.parameter.name === 'state')!;
    const withDefault = (value: unknown): ListModel => ({ ...issues.list!, filters: [{ ...filter, values: undefined, parameter: { ...filter.parameter, schema: { type: 'string', enum: ['open', 'closed', 'all', 'STATE_UNSPECIFIED'], default: value } } }] });
    expect(filterDefaults(withDefault('closed'))).toEqual([['state', 'closed']]);
    expect(filterDefaults(withDefault('all'))).toEqual([]);
    expect(filterDefaults(withDefault('STATE_UNSPECIFIED'))).toEqual([]);
    expect(filterDefaults(withDefault('merged'))).toEqual([]);
  });
});

describe('the admin API on numbered records (D240)', () => {
  let mock: StartedMock;
  beforeAll(async () => void (mock = await startMock({ spec: SPEC, port: 0, data: new Map(), adminToken: 'numbered-admin' })));
  afterAll(() => mock.close());
  const call = async (path: string, init: { method?: string; body?: unknown; admin?: boolean } = {}): Promise<{ status: number; json: unknown }> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(init.admin === true ? { authorization: 'Bearer numbered-admin' } : {}) };
    const response = await fetch(`${mock.origin}${path}`, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };

  it('names a numbered record by its global id, so issue 1 of two repositories are two records', async () => {
    const owner = ((await call('/api/user/repos', { method: 'POST', body: { name: 'east' } })).json as { owner: { login: string } }).owner.login;
    await call('/api/user/repos', { method: 'POST', body: { name: 'west' } });
    const east = (await call(`/api/repos/${owner}/east/issues`, { method: 'POST', body: { title: 'East' } })).json as { id: number; number: number };
    const west = (await call(`/api/repos/${owner}/west/issues`, { method: 'POST', body: { title: 'West' } })).json as { id: number; number: number };
    expect([east.number, west.number]).toEqual([1, 1]);
    const model = (await call('/__admin/model', { admin: true })).json as { resources: { name: string; idProperty: string }[] };
    const issues = model.resources.find((resource) => resource.name === 'issues')!;
    expect(issues.idProperty).toBe('id');
    expect((await call(`/__admin/issues/${east.id}`, { admin: true })).json).toMatchObject({ number: 1, title: 'East' });
    expect((await call(`/__admin/issues/${west.id}`, { admin: true })).json).toMatchObject({ number: 1, title: 'West' });
  });
});

describe('the suite on the numbered shapes', () => {
  let mock: StartedMock;
  beforeAll(async () => void (mock = await startMock({ spec: SPEC, port: 0, data: new Map() })));
  afterAll(() => mock.close());

  it('every check it derives passes against the mock: numbers repeating across parents raise no alarm', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: 'numbered-key', spec: SPEC, runs: 5 };
    const ids = await listCheckIds(target);
    expect(ids).toEqual(expect.arrayContaining(['createIssue.required-fields', 'getPull.found', 'getMilestone.found']));
    const failures: string[] = [];
    for (const id of ids) {
      const outcome = await runCheck(id as Parameters<typeof runCheck>[0], target);
      if (!outcome.ok) failures.push(outcome.report);
    }
    expect(failures.join('\n\n')).toBe('');
  }, 120_000);
});
