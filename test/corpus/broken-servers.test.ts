import { describe, expect, test } from 'vitest';
import { BROKEN_SERVERS, startBroken } from './broken-servers.js';
import { corpusTarget, failingChecks } from './harness.js';

// Each broken server breaks one rule of an edited spec; the suite, given that spec, must reject it with the checks
// it names. The same checks pass against the correct mock of the spec (corpus-*.test.ts), so each failure here
// is the fault's, not the suite's; the control shows the proxy itself adds none.
/**
 * fast-check runs per property against a broken server. A property stops at its first counterexample, so runs
 * cost time only where the fault is not met; many runs keep faults that need a rare input (an optional field
 * present, a nullable one null, a large nested integer) from slipping through by chance.
 */
const BROKEN_RUNS = 50;

describe('the suite rejects a broken server for every new kind of check', () => {
  test('control: the proxy without a fault, in front of the mock of the delete spec, passes every check', async () => {
    const server = await startBroken({ name: 'no fault', spec: 'delete', fault: 'none', mustFail: [], inject: () => (request, forward) => forward(request) });
    try {
      const failures = await failingChecks(corpusTarget('delete', server.baseUrl));
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test.each(BROKEN_SERVERS.map((broken) => [`${broken.spec}: ${broken.name}`, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      const oneOf = broken.mustFailOneOf ?? [];
      const failures = await failingChecks(corpusTarget(broken.spec, server.baseUrl, { runs: broken.runs ?? BROKEN_RUNS }), broken.run ?? [...broken.mustFail, ...oneOf]);
      const failed = failures.map((failure) => failure.id);
      const reports = failures.map((f) => f.report).join('\n\n');
      expect(broken.mustFail.length + oneOf.length).toBeGreaterThan(0);
      expect(failed, `${broken.fault}: expected ${broken.mustFail.join(', ')} to fail; the reports were:\n${reports}`).toEqual(expect.arrayContaining(broken.mustFail));
      if (oneOf.length > 0) expect(failed.filter((id) => oneOf.includes(id)), `${broken.fault}: expected one of ${oneOf.join(', ')} to fail`).not.toEqual([]);
    } finally {
      await server.close();
    }
  });
});
