import type { Octokit } from '@octokit/rest';

/**
 * A fixed life of a GitHub App team driven through `@octokit/rest`, as a list of steps a bench runs in order against
 * any server of GitHub's description and scores one by one. Each step passes when the answer is what GitHub's REST
 * documentation says it is: the documented status, the values written read back as written, a deleted or absent
 * record a 404, a request without a required member a 422. The steps follow test/vendors/octokit.test.ts (the same
 * calls and values) but score each call apart instead of stopping at the first failure, so that a server that
 * answers static examples scores the steps it happens to get right.
 */

/** What the steps of one life learn and hand on (the login, the numbers the server gave), created per life. */
export interface LifeState {
  octokit: Octokit;
  repo: string;
  owner?: string;
  issues: number[];
  commentId?: number;
  milestone?: number;
  pull?: number;
  gistId?: string;
}

/** One step: a name that says what GitHub documents, and a call that throws (with what it got) when the answer differs. */
export interface LifeStep {
  name: string;
  run(state: LifeState): Promise<void>;
}

/** The outcome of one step; `detail` holds what the server answered instead when `ok` is false. */
export interface StepOutcome {
  name: string;
  ok: boolean;
  detail?: string;
}

/** Throws with both values when `actual` and `expected` differ as JSON. */
function same(actual: unknown, expected: unknown): void {
  const got = JSON.stringify(actual);
  const want = JSON.stringify(expected);
  if (got !== want) throw new Error(`got ${got.slice(0, 160)}, expected ${want.slice(0, 160)}`);
}

/** The status of a call Octokit refused (it throws a `RequestError` carrying the status); 0 for none, the status of an answer it accepted otherwise. */
async function statusOf(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (error) {
    const { status } = error as { status?: unknown };
    if (typeof status === 'number') return status;
    throw error;
  }
}

/** A value an earlier step was to learn; throws when that step did not get it, so the dependent step fails with a reason. */
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} from an earlier step`);
  return value;
}

/** The nine issue numbers the issue steps were given; throws when they were not all given, so a list is never compared with fewer. */
function nine(state: LifeState): number[] {
  if (state.issues.length !== 9) throw new Error(`${state.issues.length} issue numbers from earlier steps, not nine`);
  return state.issues;
}

const numbers = (items: { number: number }[]): number[] => items.map((item) => item.number).sort((a, b) => a - b);

/** The life, in order: repository, issues, pagination, a comment, labels, a milestone and a pull request, a gist, a reaction, closing, refusals, deletion. */
export const LIFE: LifeStep[] = [
  { name: 'GET /user answers 200 with a login', run: async (s) => {
    const me = await s.octokit.rest.users.getAuthenticated();
    same(me.status, 200);
    if (!/\S/.test(me.data.login)) throw new Error('empty login');
    s.owner = me.data.login;
  } },
  { name: 'POST /user/repos: 201, the name and description sent, owned by that login', run: async (s) => {
    const created = await s.octokit.rest.repos.createForAuthenticatedUser({ name: s.repo, description: 'Issues of the team', private: false });
    same([created.status, created.data.name, created.data.description, created.data.owner.login], [201, s.repo, 'Issues of the team', s.owner]);
  } },
  { name: 'GET /repos/{owner}/{repo} reads the repository back as created', run: async (s) => {
    const read = await s.octokit.rest.repos.get({ owner: need(s.owner, 'login'), repo: s.repo });
    same([read.status, read.data.name, read.data.description, read.data.owner.login], [200, s.repo, 'Issues of the team', s.owner]);
  } },
  { name: 'a repository never created is 404', run: async (s) => same(await statusOf(s.octokit.rest.repos.get({ owner: need(s.owner, 'login'), repo: 'no-such-repository' })), 404) },
  { name: "the repository's name under another owner is 404", run: async (s) => same(await statusOf(s.octokit.rest.repos.get({ owner: 'someone-else', repo: s.repo })), 404) },
  { name: 'GET /user/repos lists it', run: async (s) => {
    const mine = await s.octokit.rest.repos.listForAuthenticatedUser({ visibility: 'all', per_page: 100 });
    if (!mine.data.some((one) => one.name === s.repo)) throw new Error(`names listed: ${mine.data.map((one) => one.name).slice(0, 5).join(', ')}`);
  } },
  { name: 'PATCH /repos/{owner}/{repo}: 200 with the new description', run: async (s) => {
    const updated = await s.octokit.rest.repos.update({ owner: need(s.owner, 'login'), repo: s.repo, description: 'Issues of the whole team' });
    same([updated.status, updated.data.description], [200, 'Issues of the whole team']);
  } },
  { name: 'the new description reads back', run: async (s) => same((await s.octokit.rest.repos.get({ owner: need(s.owner, 'login'), repo: s.repo })).data.description, 'Issues of the whole team') },
  { name: 'POST .../issues: 201, title and body as sent, state open', run: async (s) => {
    const first = await s.octokit.rest.issues.create({ owner: need(s.owner, 'login'), repo: s.repo, title: 'Login fails on Safari', body: 'Steps: open, click, fail.' });
    s.issues.push(first.data.number);
    same([first.status, first.data.title, first.data.body, first.data.state, Number.isInteger(first.data.number)], [201, 'Login fails on Safari', 'Steps: open, click, fail.', 'open', true]);
  } },
  { name: 'GET .../issues/{number} reads it back at its number', run: async (s) => {
    const number = need(s.issues[0], 'issue');
    const read = await s.octokit.rest.issues.get({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: number });
    same([read.status, read.data.number, read.data.title, read.data.body], [200, number, 'Login fails on Safari', 'Steps: open, click, fail.']);
  } },
  { name: 'eight more issues: 201 each, each number above the last', run: async (s) => {
    const problems: string[] = [];
    for (let n = 2; n <= 9; n++) {
      const created = await s.octokit.rest.issues.create({ owner: need(s.owner, 'login'), repo: s.repo, title: `Issue ${n}` });
      const last = s.issues.at(-1);
      s.issues.push(created.data.number);
      same(created.status, 201);
      if (last !== undefined && !(created.data.number > last)) problems.push(`issue ${n} got number ${created.data.number} after ${last}`);
    }
    if (problems.length > 0) throw new Error(problems.join('; '));
  } },
  { name: 'state=open lists exactly the nine issues', run: async (s) => same(numbers((await s.octokit.rest.issues.listForRepo({ owner: need(s.owner, 'login'), repo: s.repo, state: 'open', per_page: 100 })).data), nine(s)) },
  { name: 'per_page=2: two issues and a Link rel="next"', run: async (s) => {
    const page = await s.octokit.rest.issues.listForRepo({ owner: need(s.owner, 'login'), repo: s.repo, per_page: 2 });
    same([page.data.length, /rel="next"/.test(page.headers.link ?? '')], [2, true]);
  } },
  { name: 'octokit.paginate walks the nine issues 2 by 2', run: async (s) => same(numbers(await s.octokit.paginate(s.octokit.rest.issues.listForRepo, { owner: need(s.owner, 'login'), repo: s.repo, per_page: 2 })), nine(s)) },
  { name: 'POST .../issues/{number}/comments: 201 with the body sent', run: async (s) => {
    const created = await s.octokit.rest.issues.createComment({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: need(s.issues[0], 'issue'), body: 'Reproduced on 17.2.' });
    s.commentId = created.data.id;
    same([created.status, created.data.body], [201, 'Reproduced on 17.2.']);
  } },
  { name: "the issue's comments are that one comment", run: async (s) => {
    const listed = await s.octokit.rest.issues.listComments({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: need(s.issues[0], 'issue') });
    same(listed.data.map((comment) => [comment.id, comment.body]), [[need(s.commentId, 'comment'), 'Reproduced on 17.2.']]);
  } },
  { name: 'GET .../issues/comments/{id} reads it back', run: async (s) => {
    const read = await s.octokit.rest.issues.getComment({ owner: need(s.owner, 'login'), repo: s.repo, comment_id: need(s.commentId, 'comment') });
    same([read.status, read.data.id, read.data.body], [200, s.commentId, 'Reproduced on 17.2.']);
  } },
  { name: 'PATCH the comment: 200 with the new body, which reads back', run: async (s) => {
    const comment_id = need(s.commentId, 'comment');
    const updated = await s.octokit.rest.issues.updateComment({ owner: need(s.owner, 'login'), repo: s.repo, comment_id, body: 'Reproduced on 17.2 and 17.3.' });
    same([updated.status, updated.data.body], [200, 'Reproduced on 17.2 and 17.3.']);
    same((await s.octokit.rest.issues.getComment({ owner: need(s.owner, 'login'), repo: s.repo, comment_id })).data.body, 'Reproduced on 17.2 and 17.3.');
  } },
  { name: 'DELETE the comment: 204, then it is 404', run: async (s) => {
    const comment_id = need(s.commentId, 'comment');
    same((await s.octokit.rest.issues.deleteComment({ owner: need(s.owner, 'login'), repo: s.repo, comment_id })).status, 204);
    same(await statusOf(s.octokit.rest.issues.getComment({ owner: need(s.owner, 'login'), repo: s.repo, comment_id })), 404);
  } },
  { name: 'POST .../labels: 201 with the name and colour sent', run: async (s) => {
    const created = await s.octokit.rest.issues.createLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'triage', color: 'f29513', description: 'To sort' });
    same([created.status, created.data.name, created.data.color], [201, 'triage', 'f29513']);
  } },
  { name: 'PATCH .../labels/triage with new_name: 200, renamed, colour and description kept', run: async (s) => {
    const renamed = await s.octokit.rest.issues.updateLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'triage', new_name: 'needs-triage' });
    same([renamed.status, renamed.data.name, renamed.data.color, renamed.data.description], [200, 'needs-triage', 'f29513', 'To sort']);
  } },
  { name: 'the label reads back at its new name', run: async (s) => same((await s.octokit.rest.issues.getLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'needs-triage' })).data.name, 'needs-triage') },
  { name: 'the old label name is 404', run: async (s) => same(await statusOf(s.octokit.rest.issues.getLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'triage' })), 404) },
  { name: 'POST .../issues/{number}/labels: 200, the answer lists the label added', run: async (s) => {
    const added = await s.octokit.rest.issues.addLabels({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: need(s.issues[0], 'issue'), labels: ['needs-triage'] });
    same([added.status, added.data.map((label) => label.name).includes('needs-triage')], [200, true]);
  } },
  { name: "a second label: the repository's labels are the two", run: async (s) => {
    same((await s.octokit.rest.issues.createLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'obsolete' })).status, 201);
    same((await s.octokit.rest.issues.listLabelsForRepo({ owner: need(s.owner, 'login'), repo: s.repo, per_page: 100 })).data.map((label) => label.name).sort(), ['needs-triage', 'obsolete']);
  } },
  { name: 'DELETE a label: 204, then it is 404', run: async (s) => {
    same((await s.octokit.rest.issues.deleteLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'obsolete' })).status, 204);
    same(await statusOf(s.octokit.rest.issues.getLabel({ owner: need(s.owner, 'login'), repo: s.repo, name: 'obsolete' })), 404);
  } },
  { name: 'POST .../milestones: 201, the title sent, state open', run: async (s) => {
    const milestone = await s.octokit.rest.issues.createMilestone({ owner: need(s.owner, 'login'), repo: s.repo, title: 'v1.0', description: 'First release' });
    s.milestone = milestone.data.number;
    same([milestone.status, milestone.data.title, milestone.data.state], [201, 'v1.0', 'open']);
  } },
  { name: 'the milestone reads back at its number', run: async (s) => {
    const read = await s.octokit.rest.issues.getMilestone({ owner: need(s.owner, 'login'), repo: s.repo, milestone_number: need(s.milestone, 'milestone') });
    same([read.status, read.data.number, read.data.title, read.data.description], [200, s.milestone, 'v1.0', 'First release']);
  } },
  { name: 'the milestones are that one', run: async (s) => same((await s.octokit.rest.issues.listMilestones({ owner: need(s.owner, 'login'), repo: s.repo })).data.map((one) => [one.number, one.title]), [[need(s.milestone, 'milestone'), 'v1.0']]) },
  { name: 'POST .../pulls: 201, title and body as sent, state open', run: async (s) => {
    const pull = await s.octokit.rest.pulls.create({ owner: need(s.owner, 'login'), repo: s.repo, title: 'Fix the Safari login', head: 'fix-login', base: 'main', body: 'Fixes the first issue.' });
    s.pull = pull.data.number;
    same([pull.status, pull.data.title, pull.data.body, pull.data.state], [201, 'Fix the Safari login', 'Fixes the first issue.', 'open']);
  } },
  { name: 'the pull request reads back at its number', run: async (s) => {
    const read = await s.octokit.rest.pulls.get({ owner: need(s.owner, 'login'), repo: s.repo, pull_number: need(s.pull, 'pull request') });
    same([read.status, read.data.number, read.data.title], [200, s.pull, 'Fix the Safari login']);
  } },
  { name: 'the pull requests (state=all) are that one', run: async (s) => same((await s.octokit.rest.pulls.list({ owner: need(s.owner, 'login'), repo: s.repo, state: 'all' })).data.map((one) => one.number), [need(s.pull, 'pull request')]) },
  { name: 'POST /gists: 201 with the description sent, and GET /gists lists it', run: async (s) => {
    const created = await s.octokit.rest.gists.create({ description: 'Repro script', public: false, files: { 'repro.sh': { content: 'curl -i https://example.test' } } });
    s.gistId = created.data.id;
    same([created.status, created.data.description], [201, 'Repro script']);
    const listed = (await s.octokit.rest.gists.list({ per_page: 100 })).data.map((gist) => gist.id);
    if (!listed.includes(need(s.gistId, 'gist'))) throw new Error(`gist ${s.gistId} not among ${listed.slice(0, 5).join(', ')}`);
  } },
  { name: 'the gist reads back at its id', run: async (s) => {
    const read = await s.octokit.rest.gists.get({ gist_id: need(s.gistId, 'gist') });
    same([read.status, read.data.id, read.data.description], [200, s.gistId, 'Repro script']);
  } },
  { name: 'PATCH the gist: 200 with the new description, which reads back', run: async (s) => {
    const gist_id = need(s.gistId, 'gist');
    const updated = await s.octokit.rest.gists.update({ gist_id, description: 'Repro script (Safari)' });
    same([updated.status, updated.data.description], [200, 'Repro script (Safari)']);
    same((await s.octokit.rest.gists.get({ gist_id })).data.description, 'Repro script (Safari)');
  } },
  { name: 'DELETE the gist: 204, then it is 404', run: async (s) => {
    const gist_id = need(s.gistId, 'gist');
    same((await s.octokit.rest.gists.delete({ gist_id })).status, 204);
    same(await statusOf(s.octokit.rest.gists.get({ gist_id })), 404);
  } },
  { name: "a reaction on the issue: 200 or 201 with the content sent, and the issue's reactions are it", run: async (s) => {
    const issue_number = need(s.issues[0], 'issue');
    const reaction = await s.octokit.rest.reactions.createForIssue({ owner: need(s.owner, 'login'), repo: s.repo, issue_number, content: 'heart' });
    same([[200, 201].includes(reaction.status), reaction.data.content], [true, 'heart']);
    same((await s.octokit.rest.reactions.listForIssue({ owner: need(s.owner, 'login'), repo: s.repo, issue_number })).data.map((one) => one.content), ['heart']);
  } },
  { name: 'PATCH the issue to state closed: 200, closed, title kept', run: async (s) => {
    const closed = await s.octokit.rest.issues.update({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: need(s.issues[0], 'issue'), state: 'closed' });
    same([closed.status, closed.data.state, closed.data.title], [200, 'closed', 'Login fails on Safari']);
  } },
  { name: 'state=open leaves the closed issue out', run: async (s) => same(numbers((await s.octokit.rest.issues.listForRepo({ owner: need(s.owner, 'login'), repo: s.repo, state: 'open', per_page: 100 })).data), nine(s).slice(1)) },
  { name: 'state=all lists all nine', run: async (s) => same(numbers((await s.octokit.rest.issues.listForRepo({ owner: need(s.owner, 'login'), repo: s.repo, state: 'all', per_page: 100 })).data), nine(s)) },
  { name: 'an issue number never given is 404', run: async (s) => same(await statusOf(s.octokit.rest.issues.get({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: 987_654 })), 404) },
  { name: 'an issue without its required title is 422', run: async (s) => same(await statusOf(s.octokit.request({ method: 'POST', url: '/repos/{owner}/{repo}/issues', owner: need(s.owner, 'login'), repo: s.repo, body: 'No title given.' })), 422) },
  { name: 'DELETE /repos/{owner}/{repo}: 204, then it is 404', run: async (s) => {
    same((await s.octokit.rest.repos.delete({ owner: need(s.owner, 'login'), repo: s.repo })).status, 204);
    same(await statusOf(s.octokit.rest.repos.get({ owner: need(s.owner, 'login'), repo: s.repo })), 404);
  } },
  { name: 'an issue of the deleted repository is 404, and so is its issue list', run: async (s) => {
    same(await statusOf(s.octokit.rest.issues.get({ owner: need(s.owner, 'login'), repo: s.repo, issue_number: need(s.issues[1], 'issue') })), 404);
    same(await statusOf(s.octokit.rest.issues.listForRepo({ owner: need(s.owner, 'login'), repo: s.repo })), 404);
  } },
];

/** Runs every step of {@link LIFE} in order, a failing step recorded (its error's message) and the life carried on. */
export async function runLife(octokit: Octokit, repo: string): Promise<StepOutcome[]> {
  const state: LifeState = { octokit, repo, issues: [] };
  const outcomes: StepOutcome[] = [];
  for (const step of LIFE) {
    try {
      await step.run(state);
      outcomes.push({ name: step.name, ok: true });
    } catch (error) {
      const { status, message } = error as { status?: unknown; message?: unknown };
      // Octokit reports a request that got no answer (refused, timed out) as status 500 without a response: its message says why.
      const answered = typeof status === 'number' && (error as { response?: unknown }).response !== undefined;
      outcomes.push({ name: step.name, ok: false, detail: answered ? `HTTP ${status}` : String(message).split('\n')[0]!.slice(0, 200) });
    }
  }
  return outcomes;
}
