import { defineCorpusCase } from './harness.js';
import { PROBES } from './corpus-probes.js';

// Shapes a user's spec often has: string bounds and patterns, readOnly and writeOnly members, a closed schema, a
// wrapper list, an apiKey header, another path parameter name, a DELETE answering the record.
for (const name of ['string-constraints', 'server-assigned-field', 'write-only-field', 'closed-schema', 'wrapper-list', 'api-key-header', 'path-param-id', 'delete-200']) {
  defineCorpusCase(name, PROBES[name]!);
}
