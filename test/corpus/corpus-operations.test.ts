import { defineCorpusCase } from './harness.js';
import { PROBES } from './corpus-probes.js';

// New operations and resources: DELETE, PUT, PATCH, a second resource with uuid ids, an operation no resource
// holds. The mock serves each from the spec alone and the suite checks each new operation.
for (const name of ['delete', 'put-update', 'patch-update', 'second-resource', 'unmapped-operation']) {
  defineCorpusCase(name, PROBES[name]!);
}
