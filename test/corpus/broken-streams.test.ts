import { describe, expect, test } from 'vitest';
import { startBroken } from './broken-servers.js';
import { ASSISTANT_SPEC, STREAM_BROKEN_SERVERS } from './broken-streams.js';
import { CORPUS_KEY, failingChecks } from './harness.js';

// Each broken server spoils one thing of a documented stream; the suite, given the spec, must reject it with the
// check it names. The control shows the same checks pass through the proxy in front of the correct mock.
describe('the suite rejects a server whose streams break the spec', () => {
  const ids = [...new Set(STREAM_BROKEN_SERVERS.flatMap((broken) => broken.mustFail))];

  test('control: the proxy without a fault passes every stream check', async () => {
    const server = await startBroken({ ...STREAM_BROKEN_SERVERS[0]!, inject: () => (request, forward) => forward(request) });
    try {
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: ASSISTANT_SPEC, runs: 5 }, ids);
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test.each(STREAM_BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: broken.spec, runs: 5 }, broken.mustFail);
      expect(failures.map((failure) => failure.id), broken.fault).toEqual(broken.mustFail);
    } finally {
      await server.close();
    }
  });
});
