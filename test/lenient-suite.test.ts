import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';

/**
 * The suite against the mock of a description with the flaws real ones carry (mock/fixtures/lenient.openapi.yaml,
 * spec/DECISIONS.md D130-D134): no false alarm, and a check that needs a schema no validator compiles is "not run"
 * with the reason instead of a verdict.
 */
const SPEC = join(PACKAGE_ROOT, 'mock', 'fixtures', 'lenient.openapi.yaml');
const KEY = 'lenient-suite-key';

describe('the suite on a leniently read description', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC, port: 0, apiKeys: [KEY] });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const target = () => ({ baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC, runs: 10 });

  test('the nullable filter, the joined stream variant and the other checks pass', async () => {
    const ids = await listCheckIds(target());
    expect(ids).toEqual(expect.arrayContaining(['listTasks.done-filter', 'createChat.stream', 'createTask.invalid-body']));
    for (const id of ['listTasks.done-filter', 'listTasks.invalid-query', 'createChat.stream', 'createChat.echo', 'createTask.invalid-body']) {
      const outcome = await runCheck(id, target());
      expect(outcome.ok ? undefined : outcome.report, id).toBeUndefined();
      expect(outcome.ok && outcome.skipped, id).toBeFalsy();
    }
  });

  test('a check that needs a schema no validator compiles is not run, with the reason', async () => {
    const outcome = await runCheck('listLabels.documented', target());
    expect(outcome).toMatchObject({ ok: true, skipped: expect.stringMatching(/^not run: GET \/labels 200 application\/json: the schema of body cannot be compiled/) });
  });
});
