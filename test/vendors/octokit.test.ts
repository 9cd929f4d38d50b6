import { installed } from '../shared-corpus.js';
import type { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';

/**
 * GitHub's own client against the mock of GitHub's own description, both as published: `@octokit/rest` at its
 * defaults (no custom headers, no request hooks: it sends `Accept: application/vnd.github.v3+json`, D140) drives a
 * GitHub App team's life through repositories, issues, comments, labels, milestones, pull requests, gists and
 * reactions, each answer read back as the client types it. The description is the non-dereferenced
 * `@octokit/openapi` file (13 MB, some 1,200 operations), read once for the file. Where either package is absent
 * the tests skip and say so.
 */

const SPEC = installed('@octokit/openapi/generated/api.github.com.json');
const CLIENT = installed('@octokit/rest');
const ABSENT = SPEC === undefined ? '@octokit/openapi' : CLIENT === undefined ? '@octokit/rest' : undefined;

/** The status of a refused call: Octokit throws a `RequestError` carrying it. */
async function refusal(call: Promise<unknown>): Promise<{ name: string; status: number }> {
  try {
    await call;
  } catch (error) {
    const { name, status } = error as { name?: unknown; status?: unknown };
    return { name: String(name), status: Number(status) };
  }
  return { name: 'none', status: 0 };
}

describe.skipIf(ABSENT !== undefined)(`Octokit at its defaults against the mock of GitHub's description${ABSENT === undefined ? '' : ` (skipped: ${ABSENT} is not installed)`}`, () => {
  let mock: StartedMock;
  let octokit: Octokit;
  let owner = '';
  const repo = 'hello-world';
  const issues: number[] = [];
  let pullNumber = 0;

  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0 });
    const { Octokit: Client } = (await import('@octokit/rest')) as { Octokit: typeof Octokit };
    octokit = new Client({ auth: 'ghs_installation-token', baseUrl: mock.baseUrl });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('a repository created for the caller is read back at /repos/{owner}/{repo}, owned by the login GET /user shows', async () => {
    const me = await octokit.rest.users.getAuthenticated();
    expect(me.status).toBe(200);
    owner = me.data.login;
    expect(owner).toMatch(/\S/);
    const created = await octokit.rest.repos.createForAuthenticatedUser({ name: repo, description: 'Issues of the team', private: false });
    expect(created.status).toBe(201);
    expect([created.data.name, created.data.description, created.data.owner.login]).toEqual([repo, 'Issues of the team', owner]);
    // The name the description spells from the owner's login and the repository's name (D241), not its example's.
    expect(created.data.full_name).toBe(`${owner}/${repo}`);
    const read = await octokit.rest.repos.get({ owner, repo });
    expect(read.status).toBe(200);
    expect([read.data.id, read.data.name, read.data.description, read.data.owner.login]).toEqual([created.data.id, repo, 'Issues of the team', owner]);
    const elsewhere = await refusal(octokit.rest.repos.get({ owner, repo: 'no-such-repository' }));
    expect(elsewhere).toEqual({ name: 'HttpError', status: 404 });
    expect(await refusal(octokit.rest.repos.get({ owner: 'someone-else', repo }))).toEqual({ name: 'HttpError', status: 404 });
    // visibility=all (the parameter's default) asks for every repository: no filter.
    const mine = await octokit.rest.repos.listForAuthenticatedUser({ visibility: 'all', per_page: 100 });
    expect(mine.data.map((one) => one.name)).toContain(repo);
    const updated = await octokit.rest.repos.update({ owner, repo, description: 'Issues of the whole team' });
    expect([updated.status, updated.data.description]).toEqual([200, 'Issues of the whole team']);
    expect((await octokit.rest.repos.get({ owner, repo })).data.description).toBe('Issues of the whole team');
  });

  test('issues are created with increasing numbers and read back at their number as written', async () => {
    const first = await octokit.rest.issues.create({ owner, repo, title: 'Login fails on Safari', body: 'Steps: open, click, fail.' });
    expect(first.status).toBe(201);
    expect([first.data.title, first.data.body, first.data.state]).toEqual(['Login fails on Safari', 'Steps: open, click, fail.', 'open']);
    // A repository's first issue is number 1 (D240), addressed under its own repository (D241).
    expect(first.data.number).toBe(1);
    expect(first.data.repository_url).toBe(`https://api.github.com/repos/${owner}/${repo}`);
    expect(first.data.html_url).toBe(`https://github.com/${owner}/${repo}/issues/1`);
    issues.push(first.data.number);
    const read = await octokit.rest.issues.get({ owner, repo, issue_number: first.data.number });
    expect(read.status).toBe(200);
    expect([read.data.number, read.data.title, read.data.body, read.data.state]).toEqual([first.data.number, 'Login fails on Safari', 'Steps: open, click, fail.', 'open']);
    for (let n = 2; n <= 9; n++) {
      const created = await octokit.rest.issues.create({ owner, repo, title: `Issue ${n}` });
      expect(created.status).toBe(201);
      expect(created.data.number).toBeGreaterThan(issues.at(-1)!);
      issues.push(created.data.number);
    }
    expect(issues).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const listed = await octokit.rest.issues.listForRepo({ owner, repo, state: 'open', per_page: 100 });
    expect(listed.status).toBe(200);
    expect(listed.data.map((issue) => issue.number).sort((a, b) => a - b)).toEqual(issues);
  });

  test('octokit.paginate walks 9 issues 2 by 2 through the Link header', async () => {
    const page = await octokit.rest.issues.listForRepo({ owner, repo, per_page: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.headers.link).toMatch(/rel="next"/);
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, per_page: 2 });
    expect(all.map((issue) => issue.number).sort((a, b) => a - b)).toEqual(issues);
  });

  test('a comment is listed under its issue, then read, updated and deleted at its own path', async () => {
    const issue_number = issues[0]!;
    const created = await octokit.rest.issues.createComment({ owner, repo, issue_number, body: 'Reproduced on 17.2.' });
    expect(created.status).toBe(201);
    expect(created.data.body).toBe('Reproduced on 17.2.');
    const listed = await octokit.rest.issues.listComments({ owner, repo, issue_number });
    expect(listed.data.map((comment) => [comment.id, comment.body])).toEqual([[created.data.id, 'Reproduced on 17.2.']]);
    const read = await octokit.rest.issues.getComment({ owner, repo, comment_id: created.data.id });
    expect([read.status, read.data.id, read.data.body]).toEqual([200, created.data.id, 'Reproduced on 17.2.']);
    const updated = await octokit.rest.issues.updateComment({ owner, repo, comment_id: created.data.id, body: 'Reproduced on 17.2 and 17.3.' });
    expect([updated.status, updated.data.body]).toEqual([200, 'Reproduced on 17.2 and 17.3.']);
    expect((await octokit.rest.issues.getComment({ owner, repo, comment_id: created.data.id })).data.body).toBe('Reproduced on 17.2 and 17.3.');
    expect((await octokit.rest.issues.deleteComment({ owner, repo, comment_id: created.data.id })).status).toBe(204);
    expect(await refusal(octokit.rest.issues.getComment({ owner, repo, comment_id: created.data.id }))).toEqual({ name: 'HttpError', status: 404 });
  });

  test('a label is created, renamed by new_name (the old name then 404) and added to an issue', async () => {
    const created = await octokit.rest.issues.createLabel({ owner, repo, name: 'triage', color: 'f29513', description: 'To sort' });
    expect([created.status, created.data.name, created.data.color]).toEqual([201, 'triage', 'f29513']);
    const renamed = await octokit.rest.issues.updateLabel({ owner, repo, name: 'triage', new_name: 'needs-triage' });
    expect([renamed.status, renamed.data.name, renamed.data.color, renamed.data.description]).toEqual([200, 'needs-triage', 'f29513', 'To sort']);
    expect((await octokit.rest.issues.getLabel({ owner, repo, name: 'needs-triage' })).data.name).toBe('needs-triage');
    expect(await refusal(octokit.rest.issues.getLabel({ owner, repo, name: 'triage' }))).toEqual({ name: 'HttpError', status: 404 });
    const added = await octokit.rest.issues.addLabels({ owner, repo, issue_number: issues[0]!, labels: ['needs-triage'] });
    expect(added.status).toBe(200);
    expect(Array.isArray(added.data)).toBe(true);
    expect((await octokit.rest.issues.createLabel({ owner, repo, name: 'obsolete' })).status).toBe(201);
    const labels = await octokit.rest.issues.listLabelsForRepo({ owner, repo, per_page: 100 });
    expect(labels.data.map((label) => label.name).sort()).toEqual(['needs-triage', 'obsolete']);
    expect((await octokit.rest.issues.deleteLabel({ owner, repo, name: 'obsolete' })).status).toBe(204);
    expect(await refusal(octokit.rest.issues.getLabel({ owner, repo, name: 'obsolete' }))).toEqual({ name: 'HttpError', status: 404 });
  });

  test('labels of one name live in two repositories, and an issue lists the labels added to it, set and removed', async () => {
    const other = 'second-repository';
    expect((await octokit.rest.repos.createForAuthenticatedUser({ name: other })).status).toBe(201);
    expect((await octokit.rest.issues.createLabel({ owner, repo, name: 'bug', color: 'd73a4a' })).status).toBe(201);
    const again = await octokit.rest.issues.createLabel({ owner, repo: other, name: 'bug', color: '00ff00' });
    expect([again.status, again.data.name, again.data.color]).toEqual([201, 'bug', '00ff00']);
    // The same name twice in one repository is still refused (D50's 409: the operation documents neither 409 nor 400).
    expect(await refusal(octokit.rest.issues.createLabel({ owner, repo: other, name: 'bug' }))).toEqual({ name: 'HttpError', status: 409 });
    expect((await octokit.rest.issues.getLabel({ owner, repo, name: 'bug' })).data.color).toBe('d73a4a');
    expect((await octokit.rest.issues.getLabel({ owner, repo: other, name: 'bug' })).data.color).toBe('00ff00');
    // Once its repository is gone, its labels went along: the repository made again under its name starts without them.
    expect((await octokit.rest.repos.delete({ owner, repo: other })).status).toBe(204);
    expect((await octokit.rest.repos.createForAuthenticatedUser({ name: other })).status).toBe(201);
    expect((await octokit.rest.issues.listLabelsForRepo({ owner, repo: other })).data).toEqual([]);
    expect((await octokit.rest.issues.createLabel({ owner, repo: other, name: 'bug' })).status).toBe(201);
    const issue_number = issues[1]!;
    const added = await octokit.rest.issues.addLabels({ owner, repo, issue_number, labels: ['bug', 'help wanted'] });
    expect(added.status).toBe(200);
    expect(added.data.map((label) => label.name).sort()).toEqual(['bug', 'help wanted']);
    // The repository's label of that name is the one the issue carries.
    expect(added.data.find((label) => label.name === 'bug')?.color).toBe('d73a4a');
    const more = await octokit.rest.issues.addLabels({ owner, repo, issue_number, labels: ['bug', 'docs'] });
    expect(more.data.map((label) => label.name).sort()).toEqual(['bug', 'docs', 'help wanted']);
    expect((await octokit.rest.issues.listLabelsOnIssue({ owner, repo, issue_number })).data.map((label) => label.name).sort()).toEqual(['bug', 'docs', 'help wanted']);
    // Another issue's labels are its own.
    expect((await octokit.rest.issues.listLabelsOnIssue({ owner, repo, issue_number: issues[2]! })).data).toEqual([]);
    const set = await octokit.rest.issues.setLabels({ owner, repo, issue_number, labels: ['docs', 'wontfix'] });
    expect([set.status, set.data.map((label) => label.name).sort()]).toEqual([200, ['docs', 'wontfix']]);
    const removed = await octokit.rest.issues.removeLabel({ owner, repo, issue_number, name: 'wontfix' });
    expect([removed.status, removed.data.map((label) => label.name)]).toEqual([200, ['docs']]);
    expect((await octokit.rest.issues.listLabelsOnIssue({ owner, repo, issue_number })).data.map((label) => label.name)).toEqual(['docs']);
    expect((await octokit.rest.issues.removeAllLabels({ owner, repo, issue_number })).status).toBe(204);
    expect((await octokit.rest.issues.listLabelsOnIssue({ owner, repo, issue_number })).data).toEqual([]);
  });

  test('a milestone and a pull request are created and read back at their numbers', async () => {
    const milestone = await octokit.rest.issues.createMilestone({ owner, repo, title: 'v1.0', description: 'First release' });
    expect([milestone.status, milestone.data.title, milestone.data.state]).toEqual([201, 'v1.0', 'open']);
    const readMilestone = await octokit.rest.issues.getMilestone({ owner, repo, milestone_number: milestone.data.number });
    expect([readMilestone.status, readMilestone.data.number, readMilestone.data.title, readMilestone.data.description]).toEqual([200, milestone.data.number, 'v1.0', 'First release']);
    expect((await octokit.rest.issues.listMilestones({ owner, repo })).data.map((one) => [one.number, one.title])).toEqual([[milestone.data.number, 'v1.0']]);
    const pull = await octokit.rest.pulls.create({ owner, repo, title: 'Fix the Safari login', head: 'fix-login', base: 'main', body: 'Fixes the first issue.' });
    expect([pull.status, pull.data.title, pull.data.body, pull.data.state]).toEqual([201, 'Fix the Safari login', 'Fixes the first issue.', 'open']);
    // After nine issues the pull request is number 10: the repository's issues and pull requests share numbers (D240).
    expect(pull.data.number).toBe(10);
    pullNumber = pull.data.number;
    // A pull request is an issue too, marked by `pull_request` (D244).
    const asIssue = await octokit.rest.issues.get({ owner, repo, issue_number: pull.data.number });
    expect([asIssue.status, asIssue.data.number, asIssue.data.title, asIssue.data.state]).toEqual([200, 10, 'Fix the Safari login', 'open']);
    expect(asIssue.data.pull_request).toBeTruthy();
    const readPull = await octokit.rest.pulls.get({ owner, repo, pull_number: pull.data.number });
    expect([readPull.status, readPull.data.number, readPull.data.title]).toEqual([200, pull.data.number, 'Fix the Safari login']);
    expect((await octokit.rest.pulls.list({ owner, repo, state: 'all' })).data.map((one) => one.number)).toEqual([pull.data.number]);
  });

  test('a gist is created, read, updated and deleted, then 404', async () => {
    const created = await octokit.rest.gists.create({ description: 'Repro script', public: false, files: { 'repro.sh': { content: 'curl -i https://example.test' } } });
    expect(created.status).toBe(201);
    expect(created.data.description).toBe('Repro script');
    const gist_id = created.data.id!;
    expect((await octokit.rest.gists.list({ per_page: 100 })).data.map((gist) => gist.id)).toContain(gist_id);
    const read = await octokit.rest.gists.get({ gist_id });
    expect([read.status, read.data.id, read.data.description]).toEqual([200, gist_id, 'Repro script']);
    const updated = await octokit.rest.gists.update({ gist_id, description: 'Repro script (Safari)' });
    expect([updated.status, updated.data.description]).toEqual([200, 'Repro script (Safari)']);
    expect((await octokit.rest.gists.get({ gist_id })).data.description).toBe('Repro script (Safari)');
    expect((await octokit.rest.gists.delete({ gist_id })).status).toBe(204);
    expect(await refusal(octokit.rest.gists.get({ gist_id }))).toEqual({ name: 'HttpError', status: 404 });
  });

  test('a reaction, then the issue closed: state=open leaves it out, state=all (no filter) lists it', async () => {
    const reaction = await octokit.rest.reactions.createForIssue({ owner, repo, issue_number: issues[0]!, content: 'heart' });
    expect([200, 201]).toContain(reaction.status);
    expect(reaction.data.content).toBe('heart');
    expect((await octokit.rest.reactions.listForIssue({ owner, repo, issue_number: issues[0]! })).data.map((one) => one.content)).toEqual(['heart']);
    const closed = await octokit.rest.issues.update({ owner, repo, issue_number: issues[0]!, state: 'closed' });
    expect([closed.status, closed.data.state, closed.data.title]).toEqual([200, 'closed', 'Login fails on Safari']);
    // Issue lists hold pull requests too, told apart by their `pull_request` member, as GitHub's lists do.
    const split = (listed: { number: number; pull_request?: unknown }[]): [number[], number[]] => [
      listed.filter((issue) => issue.pull_request == null).map((issue) => issue.number).sort((a, b) => a - b),
      listed.filter((issue) => issue.pull_request != null).map((issue) => issue.number),
    ];
    const open = await octokit.rest.issues.listForRepo({ owner, repo, state: 'open', per_page: 100 });
    expect(split(open.data)).toEqual([issues.slice(1), [pullNumber]]);
    const all = await octokit.rest.issues.listForRepo({ owner, repo, state: 'all', per_page: 100 });
    expect(split(all.data)).toEqual([issues, [pullNumber]]);
  });

  test('an absent issue is a 404 and an issue without a title a 422, both thrown as RequestError', async () => {
    expect(await refusal(octokit.rest.issues.get({ owner, repo, issue_number: 987_654 }))).toEqual({ name: 'HttpError', status: 404 });
    const untitled = await refusal(octokit.request({ method: 'POST', url: '/repos/{owner}/{repo}/issues', owner, repo, body: 'No title given.' }));
    expect(untitled).toEqual({ name: 'HttpError', status: 422 });
  });

  test('two repositories of the team number their issues and pull requests from 1 each, in one space per repository', async () => {
    const names = ['team-api', 'team-web'];
    for (const name of names) {
      const made = await octokit.rest.repos.createForAuthenticatedUser({ name, private: true });
      expect([made.status, made.data.full_name, made.data.owner.login]).toEqual([201, `${owner}/${name}`, owner]);
      expect(made.data.url).toMatch(new RegExp(`/repos/${owner}/${name}$`));
    }
    for (const name of names) {
      const first = await octokit.rest.issues.create({ owner, repo: name, title: `${name}: crash on start` });
      const second = await octokit.rest.issues.create({ owner, repo: name, title: `${name}: slow build` });
      const pull = await octokit.rest.pulls.create({ owner, repo: name, title: `${name}: fix the crash`, head: 'fix-crash', base: 'main' });
      const third = await octokit.rest.issues.create({ owner, repo: name, title: `${name}: docs` });
      // Issues and pull requests share a repository's numbers, as each names the other (`pull_request`, `issue_url`).
      expect([first.data.number, second.data.number, pull.data.number, third.data.number]).toEqual([1, 2, 3, 4]);
    }
    expect((await octokit.rest.issues.get({ owner, repo: 'team-web', issue_number: 2 })).data.title).toBe('team-web: slow build');
    expect((await octokit.rest.issues.get({ owner, repo: 'team-api', issue_number: 2 })).data.title).toBe('team-api: slow build');
    expect((await octokit.rest.pulls.get({ owner, repo: 'team-api', pull_number: 3 })).data.title).toBe('team-api: fix the crash');
    expect(await refusal(octokit.rest.pulls.get({ owner, repo: 'team-api', pull_number: 4 }))).toEqual({ name: 'HttpError', status: 404 });
    // Closing an issue takes it out of the list that names no state: `state` defaults to `open` (D243).
    expect((await octokit.rest.issues.update({ owner, repo: 'team-api', issue_number: 1, state: 'closed' })).data.state).toBe('closed');
    const numbers = async (state?: 'open' | 'closed' | 'all'): Promise<number[]> =>
      (await octokit.rest.issues.listForRepo({ owner, repo: 'team-api', per_page: 100, ...(state === undefined ? {} : { state }) })).data.map((issue) => issue.number).sort((a, b) => a - b);
    // Number 3 is the pull request, listed among the issues as GitHub lists it (D244).
    expect(await numbers()).toEqual([2, 3, 4]);
    expect(await numbers('closed')).toEqual([1]);
    expect(await numbers('all')).toEqual([1, 2, 3, 4]);
    const web = await octokit.rest.issues.listForRepo({ owner, repo: 'team-web', per_page: 100 });
    expect(web.data.map((issue) => issue.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    // Closing the pull request closes it as an issue too.
    expect((await octokit.rest.pulls.update({ owner, repo: 'team-web', pull_number: 3, state: 'closed' })).data.state).toBe('closed');
    expect((await octokit.rest.issues.get({ owner, repo: 'team-web', issue_number: 3 })).data.state).toBe('closed');
    expect((await octokit.rest.pulls.list({ owner, repo: 'team-web' })).data.map((pull) => pull.number)).toEqual([]);
  });

  test('a deleted repository is 404, and so is what lived under it', async () => {
    expect((await octokit.rest.repos.delete({ owner, repo })).status).toBe(204);
    expect(await refusal(octokit.rest.repos.get({ owner, repo }))).toEqual({ name: 'HttpError', status: 404 });
    expect(await refusal(octokit.rest.issues.get({ owner, repo, issue_number: issues[1]! }))).toEqual({ name: 'HttpError', status: 404 });
    expect(await refusal(octokit.rest.issues.listForRepo({ owner, repo }))).toEqual({ name: 'HttpError', status: 404 });
  });
});
