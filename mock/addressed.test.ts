import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { fixtureMock } from '../test/in-process.js';
import { startMock, type StartedMock } from './index.js';

/**
 * Records addressed where the description addresses them (spec/DECISIONS.md D141-D145), served from
 * mock/fixtures/addressed.openapi.yaml, a small spec in the shape of GitHub's: a repository created at
 * `/user/repos` and read at `/repos/{owner}/{repo}`, issues by number, comments at their own path, label renames,
 * `state=all`, and 422 as the validation failure beside a plain 400.
 */
const { send, post, get } = await fixtureMock('addressed.openapi.yaml');
const JSON_TYPE = { 'content-type': 'application/json' };
const patch = (url: string, body: unknown): ReturnType<typeof get> => send({ method: 'PATCH', url: `/api${url}`, headers: JSON_TYPE, body: JSON.stringify(body) });
const del = (url: string): ReturnType<typeof get> => send({ method: 'DELETE', url: `/api${url}` });

describe('the model of the addressed shapes (D141)', () => {
  it('joins /repos/{owner}/{repo} to the collection whose create answers its record, keyed by name; issues by number', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'addressed.openapi.yaml'));
    const repos = model.resources.find((resource) => resource.collectionPath === '/user/repos')!;
    expect([repos.itemPath, repos.idProperty, repos.idSource]).toEqual(['/repos/{owner}/{repo}', 'name', 'client']);
    const issues = model.resources.find((resource) => resource.collectionPath === '/repos/{owner}/{repo}/issues')!;
    expect([issues.idProperty, issues.parent?.resource, issues.parent?.byExample]).toEqual(['number', repos.name, undefined]);
    const comments = model.resources.find((resource) => resource.collectionPath.endsWith('/{issue_number}/comments'))!;
    expect(comments.itemPath).toBe('/repos/{owner}/{repo}/issues/comments/{comment_id}');
    expect(issues.list?.filters.find((filter) => filter.parameter.name === 'state')?.any).toEqual(['all']);
  });
});

describe('records created at one path and addressed at another', () => {
  it('a repository is read, updated and deleted at /repos/{owner}/{repo}, its owner compared without case (D141, D145)', () => {
    const created = post('/user/repos', { name: 'tools', description: 'Scripts' });
    expect(created.status).toBe(201);
    const owner = (created.json as { owner: { login: string } }).owner.login;
    expect(get(`/repos/${owner}/tools`)).toMatchObject({ status: 200, json: { name: 'tools', description: 'Scripts' } });
    expect(get(`/repos/${owner.toUpperCase()}/tools`).status).toBe(200);
    expect(get(`/repos/someone-else/tools`).status).toBe(404);
    expect(get(`/repos/${owner}/other`).status).toBe(404);
    expect(patch(`/repos/${owner}/tools`, { description: 'Build scripts' })).toMatchObject({ status: 200, json: { description: 'Build scripts' } });
    expect(del(`/repos/someone-else/tools`).status).toBe(404);
    expect(del(`/repos/${owner}/tools`).status).toBe(204);
    expect(get(`/repos/${owner}/tools`).status).toBe(404);
  });

  it('issues get increasing numbers and live under their repository only while it exists (D141, D145)', () => {
    const owner = (post('/user/repos', { name: 'app' }).json as { owner: { login: string } }).owner.login;
    const first = post(`/repos/${owner}/app/issues`, { title: 'One', body: 'First' });
    const second = post(`/repos/${owner}/app/issues`, { title: 'Two' });
    expect([first.status, second.status]).toEqual([201, 201]);
    const [a, b] = [(first.json as { number: number }).number, (second.json as { number: number }).number];
    expect(b).toBeGreaterThan(a);
    expect(get(`/repos/${owner}/app/issues/${a}`)).toMatchObject({ status: 200, json: { number: a, title: 'One', body: 'First', state: 'open' } });
    expect(get(`/repos/${owner}/absent/issues/${a}`).status).toBe(404);
    expect(get(`/repos/someone-else/app/issues/${a}`).status).toBe(404);
    expect(post(`/repos/${owner}/absent/issues`, { title: 'Lost' }).status).toBe(404);
    expect(del(`/repos/${owner}/app`).status).toBe(204);
    expect(get(`/repos/${owner}/app/issues/${a}`).status).toBe(404);
  });

  it('state=all is no filter, state=open and state=closed are (D142)', () => {
    const owner = (post('/user/repos', { name: 'web' }).json as { owner: { login: string } }).owner.login;
    const numbers = [1, 2, 3].map((n) => (post(`/repos/${owner}/web/issues`, { title: `Issue ${n}` }).json as { number: number }).number);
    expect(patch(`/repos/${owner}/web/issues/${numbers[0]}`, { state: 'closed' }).status).toBe(200);
    const listed = (state: string): number[] => (get(`/repos/${owner}/web/issues?state=${state}`).json as { number: number }[]).map((issue) => issue.number).sort((x, y) => x - y);
    expect(listed('all')).toEqual(numbers);
    expect(listed('open')).toEqual(numbers.slice(1));
    expect(listed('closed')).toEqual(numbers.slice(0, 1));
  });

  it('a comment made under its issue is read, updated and deleted at its own path (D141)', () => {
    const owner = (post('/user/repos', { name: 'api' }).json as { owner: { login: string } }).owner.login;
    const issue = (post(`/repos/${owner}/api/issues`, { title: 'Slow' }).json as { number: number }).number;
    const comment = post(`/repos/${owner}/api/issues/${issue}/comments`, { body: 'Seen too' });
    const id = (comment.json as { id: number }).id;
    expect(get(`/repos/${owner}/api/issues/comments/${id}`)).toMatchObject({ status: 200, json: { id, body: 'Seen too' } });
    expect(patch(`/repos/${owner}/api/issues/comments/${id}`, { body: 'Seen twice' })).toMatchObject({ status: 200, json: { body: 'Seen twice' } });
    expect(get(`/repos/${owner}/api/issues/${issue}/comments`).json).toEqual([{ id, body: 'Seen twice' }]);
    expect(del(`/repos/${owner}/api/issues/comments/${id}`).status).toBe(204);
    expect(get(`/repos/${owner}/api/issues/comments/${id}`).status).toBe(404);
  });

  it('new_name renames a label: the new name reads it, the old one is 404 and free again (D144)', () => {
    const owner = (post('/user/repos', { name: 'lib' }).json as { owner: { login: string } }).owner.login;
    expect(post(`/repos/${owner}/lib/labels`, { name: 'bug', color: 'ff0000' }).status).toBe(201);
    expect(post(`/repos/${owner}/lib/labels`, { name: 'wontfix' }).status).toBe(201);
    expect(patch(`/repos/${owner}/lib/labels/bug`, { new_name: 'defect' })).toMatchObject({ status: 200, json: { name: 'defect', color: 'ff0000' } });
    expect(get(`/repos/${owner}/lib/labels/defect`)).toMatchObject({ status: 200, json: { name: 'defect' } });
    expect(get(`/repos/${owner}/lib/labels/bug`).status).toBe(404);
    expect(patch(`/repos/${owner}/lib/labels/defect`, { new_name: 'wontfix' }).status).toBeGreaterThanOrEqual(400);
    expect(get(`/repos/${owner}/lib/labels/defect`).status).toBe(200);
    expect(post(`/repos/${owner}/lib/labels`, { name: 'bug' }).status).toBe(201);
  });

  it('a body its schema rejects is 422 where 422 is the documented validation failure beside a plain 400; malformed JSON stays 400 (D143)', () => {
    const owner = (post('/user/repos', { name: 'cli' }).json as { owner: { login: string } }).owner.login;
    expect(post(`/repos/${owner}/cli/issues`, { body: 'No title' }).status).toBe(422);
    expect(post('/user/repos', { description: 'No name' }).status).toBe(422);
    expect(send({ method: 'POST', url: `/api/repos/${owner}/cli/issues`, headers: JSON_TYPE, body: '{"title":' }).status).toBe(400);
  });
});

describe('the suite on the addressed shapes', () => {
  const spec = join(PACKAGE_ROOT, 'mock', 'fixtures', 'addressed.openapi.yaml');
  let mock: StartedMock;
  beforeAll(async () => void (mock = await startMock({ spec, port: 0, data: new Map() })));
  afterAll(() => mock.close());

  it('every check it derives passes against the mock: sub-resources under /repos/{owner}/{repo} are sent the owner their parent record names (D145), a rename is not judged as a kept key (D144)', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: 'addressed-key', spec, runs: 5 };
    const ids = await listCheckIds(target);
    expect(ids).toEqual(expect.arrayContaining(['createIssue.required-fields', 'updateLabel.persisted', 'getComment.found']));
    const failures: string[] = [];
    for (const id of ids) {
      const outcome = await runCheck(id as Parameters<typeof runCheck>[0], target);
      if (!outcome.ok) failures.push(outcome.report);
    }
    expect(failures.join('\n\n')).toBe('');
  }, 120_000);
});
