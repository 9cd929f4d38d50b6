import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runSuite } from '../conformance/run-suite.js';
import { modelOf } from '../conformance/contract.js';
import { startMock, type StartedMock } from '../mock/index.js';

/**
 * GitHub's own description (the `@octokit/openapi` development dependency, ~1,100 operations): no check of a sample
 * of the suite's catalogue fails against the project's mock of it, neither from set-up (a parent left empty,
 * `/orgs//…`, a refused set-up write, no schema branch admitting a value: spec/DECISIONS.md › D160-D165) nor from
 * what the mock answers (D230-D238); each check not run says why. Skips, saying so, when the package is absent.
 */
function githubDescription(): string | undefined {
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

const SPEC = githubDescription();
const KEY = 'github-setup-key-0123456789';
/** Every this many checks of the catalogue, in its order: a sample across all kinds of check. */
const EVERY = 41;

describe.skipIf(SPEC === undefined)(`the suite on the mock of GitHub's description${SPEC === undefined ? ' (skipped: @octokit/openapi is not installed)' : ''}`, () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('a sample of its checks: none fails; each check not run says why', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC!, runs: 3 };
    const all = await listCheckIds(target);
    expect(all.length).toBeGreaterThan(2000);
    const sample = all.filter((_id, index) => index % EVERY === 0);
    const { checks } = await runSuite(await modelOf(SPEC!), target, { checks: sample });
    expect(checks.map((check) => check.id)).toEqual(sample);
    const fromSetup = checks.filter((check) => check.state === 'failed' && /curl [^\n]*'https?:\/\/[^/']+\/[^?']*\/\/|fc\.oneof|at least one/.test(check.report ?? ''));
    expect(fromSetup.map((check) => `${check.id}\n${check.report ?? ''}`).join('\n\n')).toBe('');
    const failed = checks.filter((check) => check.state === 'failed');
    expect(failed.map((check) => `${check.id}\n${check.report ?? ''}`).join('\n\n')).toBe('');
    for (const check of checks.filter((candidate) => candidate.state === 'skipped')) expect(check.skipped, check.id).toMatch(/\S/);
    expect(checks.filter((check) => check.state === 'passed').length).toBeGreaterThan(sample.length / 3);
  }, 600_000);

  test('the records the mock serves agree with its other answers (D233, D236, D238, D245)', async () => {
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
      const response = await fetch(`${mock.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await response.text();
      return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
    };
    // A list served from a sample (its example is invalid) names ids a write may reference (D233).
    const teams = (await call('GET', '/user/teams')).json as { id: number }[];
    expect(teams.length).toBeGreaterThan(0);
    const repo = await call('POST', '/user/repos', { name: 'agreement-repo', team_id: teams[0]!.id });
    expect(repo.status).toBe(201);
    // Read under the owner its record shows (D236).
    const owner = (repo.json as { owner: Record<string, unknown> }).owner;
    const named = Object.values(owner).filter((value): value is string => typeof value === 'string');
    const reads = await Promise.all(named.map((value) => call('GET', `/repos/${encodeURIComponent(value)}/agreement-repo`)));
    expect(reads.some((read) => read.status === 200)).toBe(true);
    const login = named[reads.findIndex((read) => read.status === 200)]!;
    // A sub-collection under a record read at a path that names no grandparent (D238).
    const issue = await call('POST', `/repos/${login}/agreement-repo/issues`, { title: 'agreement' });
    expect(issue.status).toBe(201);
    const number = (issue.json as { number: number }).number;
    const comment = await call('POST', `/repos/${login}/agreement-repo/issues/${number}/comments`, { body: 'agreement' });
    expect(comment.status).toBe(201);
    const commentId = (comment.json as { id: number }).id;
    expect((await call('GET', `/repos/${login}/agreement-repo/issues/comments/${commentId}`)).status).toBe(200);
    const reaction = await call('POST', `/repos/${login}/agreement-repo/issues/comments/${commentId}/reactions`, { content: 'heart' });
    expect([200, 201]).toContain(reaction.status);
    expect((await call('GET', `/repos/${login}/agreement-repo/issues/comments/${commentId}/reactions`)).status).toBe(200);
    // A number freed by a delete is never given again (D245): a link to milestone 2 must not find another one.
    const milestone = async (title: string): Promise<number> => ((await call('POST', `/repos/${login}/agreement-repo/milestones`, { title })).json as { number: number }).number;
    const [first, second] = [await milestone('v1'), await milestone('v2')];
    expect(second).toBe(first + 1);
    expect((await call('DELETE', `/repos/${login}/agreement-repo/milestones/${second}`)).status).toBe(204);
    expect(await milestone('v3')).toBe(second + 1);
    expect((await call('GET', `/repos/${login}/agreement-repo/milestones/${second}`)).status).toBe(404);
  }, 60_000);
});
