import { startCorpusCli } from './corpus-cli.js';
import { defineCorpusCase } from './harness.js';
import { PROBES } from './corpus-probes.js';

// Other styles of the same interface. The /v2 case runs the built CLI with `--spec`, as a user starts it; the
// others start the mock in-process.
defineCorpusCase('v2-base-path', PROBES['v2-base-path']!, startCorpusCli);
for (const name of ['openapi-3.0', 'no-security', 'create-200', 'problem-json-errors']) {
  defineCorpusCase(name, PROBES[name]!);
}
