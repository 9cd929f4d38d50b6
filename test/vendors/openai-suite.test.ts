import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds } from '../../conformance/run-suite.js';
import { startMock, type StartedMock } from '../../mock/index.js';
import { failingChecks } from '../corpus/harness.js';
import { absentReason, sharedCorpusFile } from '../shared-corpus.js';

/**
 * The suite's checks of OpenAI's main stateful resources pass against the mock of OpenAI's public description
 * (../shared/corpus/openai/openapi.yaml): updates by POST on the item path (D150), uploads (D151), a catalogue
 * with its starting record (D154), creates answering a one-time credential beside the record (D155), sub-resources
 * under threads and projects. Where the corpus file is absent, the test skips and says so.
 */
const FILE = 'openai/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const KEY = 'sk-suite-key';
/** Resources whose checks run: those a chat front-end and an organisation admin use, with their parents. */
const RESOURCES = ['assistants', 'vector_stores', 'files', 'models', 'evals', 'threads', 'messages', 'projects', 'service_accounts', 'admin_api_keys'];

describe.skipIf(SPEC === undefined)(`the suite against the mock of OpenAI's description${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('every check of its main resources passes, the updates by POST among them', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC!, runs: 5 };
    const operations = new Set(mock.model.resources.filter((resource) => RESOURCES.includes(resource.name)).flatMap((resource) => Object.values(resource.operations).map((op) => op!.operationId)));
    const ids = (await listCheckIds(target)).filter((id) => operations.has(id.startsWith('auth.') ? id.slice('auth.'.length) : id.slice(0, id.lastIndexOf('.'))));
    expect(ids.length).toBeGreaterThan(100);
    expect(ids).toEqual(expect.arrayContaining(['modifyAssistant.persisted', 'modifyVectorStore.persisted', 'modifyThread.persisted']));
    expect((await failingChecks(target, ids)).map((failure) => failure.report).join('\n\n')).toBe('');
  }, 300_000);
});
