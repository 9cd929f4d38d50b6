import { describe, expect, test } from 'vitest';
import { startBroken } from './broken-servers.js';
import { CLIENT_FORM_BROKEN_SERVERS, ENVELOPE_BROKEN_SERVERS, LISTS_EVERY_FISH, PAGING_BROKEN_SERVERS, SUITE_BROKEN_SERVERS } from './broken-servers-suite.js';
import { CORPUS_KEY, failingChecks } from './harness.js';

// Each broken server lets one kind of invalid replace or update body through; the suite, given the spec, must
// reject it with the check it names, with a single fast-check run and under three seeds: the fixed catalogue
// catches it every run, not by chance. The control shows the same checks pass against the correct mock.
describe('refusals of replace and update bodies are caught every run, keyword by keyword', () => {
  test('control: the proxy without a fault passes every refusal check', async () => {
    const server = await startBroken({ ...SUITE_BROKEN_SERVERS[0]!, inject: () => (request, forward) => forward(request) });
    try {
      const ids = ['replaceBox.required-fields', 'replaceBox.invalid-body', 'updateBox.invalid-body'];
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: SUITE_BROKEN_SERVERS[0]!.spec, runs: 5 }, ids);
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test.each(SUITE_BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      for (const seed of [1, 2, 3]) {
        const target = { baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: broken.spec, runs: broken.runs ?? 1, seed };
        const failed = (await failingChecks(target, broken.mustFail)).map((failure) => failure.id);
        expect(failed, `${broken.fault} (seed ${seed})`).toEqual(broken.mustFail);
      }
    } finally {
      await server.close();
    }
  });
});

describe('client-chosen ids and form bodies', () => {
  test('control: the proxy without a fault passes every check of the spec', async () => {
    const server = await startBroken({ ...CLIENT_FORM_BROKEN_SERVERS[0]!, inject: () => (request, forward) => forward(request) });
    try {
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: CLIENT_FORM_BROKEN_SERVERS[0]!.spec, runs: 10 });
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test.each(CLIENT_FORM_BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      const target = { baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: broken.spec, runs: broken.runs ?? 30 };
      const failed = (await failingChecks(target, broken.mustFail)).map((failure) => failure.id);
      expect(failed, broken.fault).toEqual(broken.mustFail);
    } finally {
      await server.close();
    }
  });
});

describe('pagination: the pages of a list partition it, for every paging kind', () => {
  test('control: the proxy without a fault passes every check of the paged spec', async () => {
    const server = await startBroken({ ...PAGING_BROKEN_SERVERS[0]!, inject: () => (request, forward) => forward(request) });
    try {
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: PAGING_BROKEN_SERVERS[0]!.spec, runs: 10 });
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test('a server that lists every fish when `water` (default fresh) is left out passes as well as the mock, which applies the default', async () => {
    const server = await startBroken({ ...PAGING_BROKEN_SERVERS[0]!, inject: () => LISTS_EVERY_FISH });
    try {
      const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: PAGING_BROKEN_SERVERS[0]!.spec, runs: 10 });
      expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
    } finally {
      await server.close();
    }
  });

  test.each(PAGING_BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      const failed = (await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: broken.spec, runs: 5 }, broken.mustFail)).map((failure) => failure.id);
      expect(failed, broken.fault).toEqual(broken.mustFail);
    } finally {
      await server.close();
    }
  });
});

describe('single-record envelopes: records are read through them', () => {
  test('control: the proxy without a fault passes every check of both envelope specs', async () => {
    for (const spec of [...new Set(ENVELOPE_BROKEN_SERVERS.map((broken) => broken.spec))]) {
      const server = await startBroken({ ...ENVELOPE_BROKEN_SERVERS.find((broken) => broken.spec === spec)!, inject: () => (request, forward) => forward(request) });
      try {
        const failures = await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec, runs: 10 });
        expect(failures.map((f) => `${f.id}\n${f.report}`).join('\n\n')).toBe('');
      } finally {
        await server.close();
      }
    }
  });

  test.each(ENVELOPE_BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_title, broken) => {
    const server = await startBroken(broken);
    try {
      const failed = (await failingChecks({ baseUrl: server.baseUrl, apiKey: CORPUS_KEY, spec: broken.spec, runs: 10 }, broken.mustFail)).map((failure) => failure.id);
      expect(failed, broken.fault).toEqual(broken.mustFail);
    } finally {
      await server.close();
    }
  });
});
