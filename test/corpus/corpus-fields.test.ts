import { defineCorpusCase } from './harness.js';
import { PROBES } from './corpus-probes.js';

// Edits of the record and of the list: the mock started from each spec, with no TypeScript edited, passes every
// check the suite derives from the same spec, and the probes show the edit carried.
for (const name of ['optional-field', 'required-field', 'new-enum-value', 'new-filter', 'boolean-filter', 'limit-bounds', 'allof-pet', 'nested-record']) {
  defineCorpusCase(name, PROBES[name]!);
}
