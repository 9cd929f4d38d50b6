import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runSuite } from '../conformance/run-suite.js';
import { modelOf } from '../conformance/contract.js';
import { startMock, type StartedMock } from '../mock/index.js';

/**
 * GitHub's own description (the `@octokit/openapi` development dependency, ~1,100 operations): the suite's set-up
 * never fails a check of a sample of its catalogue against the project's mock of it (spec/DECISIONS.md › D160-D165).
 * A check may still fail for what the mock answers; none fails because a parent was left empty (`/orgs//…`), a
 * set-up write was refused, or no schema branch admitted a value. Skips, saying so, when the package is absent.
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
const EVERY = 97;

describe.skipIf(SPEC === undefined)(`the suite on the mock of GitHub's description${SPEC === undefined ? ' (skipped: @octokit/openapi is not installed)' : ''}`, () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('a sample of its checks: none fails from set-up; each check not run says why', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC!, runs: 3 };
    const all = await listCheckIds(target);
    expect(all.length).toBeGreaterThan(2000);
    const sample = all.filter((_id, index) => index % EVERY === 0);
    const { checks } = await runSuite(await modelOf(SPEC!), target, { checks: sample });
    expect(checks.map((check) => check.id)).toEqual(sample);
    const fromSetup = checks.filter((check) => check.state === 'failed' && /curl [^\n]*'https?:\/\/[^/']+\/[^?']*\/\/|fc\.oneof|at least one/.test(check.report ?? ''));
    expect(fromSetup.map((check) => `${check.id}\n${check.report ?? ''}`).join('\n\n')).toBe('');
    for (const check of checks.filter((candidate) => candidate.state === 'skipped')) expect(check.skipped, check.id).toMatch(/\S/);
    expect(checks.filter((check) => check.state === 'passed').length).toBeGreaterThan(sample.length / 3);
  }, 600_000);
});
