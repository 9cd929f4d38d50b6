import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from './loader.js';

// What the model reads from the corners of a real multi-file spec (spec/DECISIONS.md › D74, D78), on the corpus's
// spec in their shape.

const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'cloud-extras-3.0.yaml'));
const op = (operationId: string) => model.operations.find((candidate) => candidate.operationId === operationId)!;

describe('operations served at their own servers', () => {
  test('an operation whose servers are none of the document’s is served elsewhere; the others are not', () => {
    expect(op('inference_upload_batch_file').servedElsewhere).toBe('https://');
    expect(model.operations.filter((candidate) => candidate.servedElsewhere !== undefined).map((candidate) => candidate.operationId)).toEqual(['inference_upload_batch_file']);
    expect(model.notes.some((note) => note.includes('served at its own servers: PUT /<upload_url> (https://)'))).toBe(true);
  });
});

describe('what names a record', () => {
  test('a timestamp or a measure is never an id: a create-only registry is no resource', () => {
    expect(op('registry_create').resource).toBeUndefined();
    expect(model.resources.map((resource) => resource.name)).toEqual(['certificates', 'clusters', 'clusterlint']);
  });
  test('a lint run per cluster is a singleton named by its read-only run_id', () => {
    const lint = model.resources.find((resource) => resource.name === 'clusterlint')!;
    expect(lint).toMatchObject({ idProperty: 'run_id', idParameter: undefined, parent: { resource: 'clusters', singleton: true } });
    expect(op('kubernetes_get_clusterLintResults').idIn).toBe('parent');
  });
});

describe('invalid requests (D74)', () => {
  test('an explicit 422 outweighs a catch-all default: invalid bodies are 422 there, 400 elsewhere', () => {
    expect(op('kubernetes_create_cluster').errors.invalidRequestStatus).toBe(422);
    expect(op('certificates_create').errors.invalidRequestStatus).toBe(422);
    expect(op('kubernetes_run_clusterLint').errors.invalidRequestStatus).toBe(400);
  });
});

describe('header parameters (D79)', () => {
  test('are read in lower case, required or not; Accept, Content-Type and Authorization are not', async () => {
    const expanded = await loadModel(join(PACKAGE_ROOT, 'test', 'wild', 'expanded-style.yaml'));
    const remove = expanded.operations.find((candidate) => candidate.operationId === 'deletePlant')!;
    expect(remove.headerParams.map((parameter) => [parameter.name, parameter.required])).toEqual([['x-confirm', true]]);
    expect(remove.headerParams[0]!.validate('yes')).toBe(true);
    expect(remove.headerParams[0]!.validate('no')).toBe(false);
    expect(model.operations.every((candidate) => candidate.headerParams.every((parameter) => !['accept', 'content-type', 'authorization'].includes(parameter.name)))).toBe(true);
  });
});
