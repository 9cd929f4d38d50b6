import { expect, test } from 'vitest';
import { defineIndependentCase, failureText, INDEPENDENT_KEY, INDEPENDENT_RUNS, outcomes } from '../independent-case.js';
import { GITHUB_ISSUES_FAULTS, GITHUB_ISSUES_SPEC } from './faults.js';
import { GITHUB_ABSENT, GITHUB_ISSUES_OPERATIONS, writeGithubIssuesCut } from './github-cut.js';
import { startGithubIssuesServer } from './github-issues-server.js';

defineIndependentCase(GITHUB_ISSUES_SPEC, (fault) => startGithubIssuesServer(fault === undefined ? {} : { fault }), GITHUB_ISSUES_FAULTS);

// The same server under a cut without the repository's read: no record names an owner or a repository, so the
// checks under them are not run, and those of the operations no resource holds meet drawn names of records that do
// not exist. None fails: a 404 for a record that is not there is HTTP's answer, whatever the operation lists (D267).
const withoutRepository = writeGithubIssuesCut(GITHUB_ISSUES_OPERATIONS.filter((operation) => operation !== 'repos/get'));
test.skipIf(withoutRepository === undefined)(`github issues cut without the repository's read: the correct server passes what runs${withoutRepository === undefined ? ` (${GITHUB_ABSENT})` : ''}`, async () => {
  const server = await startGithubIssuesServer();
  try {
    const results = await outcomes({ baseUrl: server.baseUrl, apiKey: INDEPENDENT_KEY, spec: withoutRepository!, runs: INDEPENDENT_RUNS });
    expect(failureText(results)).toBe('');
    expect(results.find((result) => result.id === 'issues/delete-label.documented')).toMatchObject({ ok: true });
  } finally {
    await server.close();
  }
}, 60_000);
