import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { checksFor, isSeedShaped } from './catalogue.js';

/** The model of one evolved spec of spec/corpus/. */
const corpus = (name: string): Promise<ApiModel> => loadModel(join(PACKAGE_ROOT, 'spec', 'corpus', `${name}.yaml`));

describe('checksFor', () => {
  test("the seed's spec: exactly the seed suite's sixteen ids, in run order, with the seed's rule texts", async () => {
    const model = await loadModel();
    expect(isSeedShaped(model)).toBe(true);
    const checks = checksFor(model);
    expect(checks.map((check) => check.id)).toEqual([
      'auth.listPets',
      'auth.createPet',
      'auth.getPet',
      'createPet.required-fields',
      'createPet.invalid-body',
      'getPet.not-found',
      'responses.conformance',
      'listPets.invalid-query',
      'listPets.status-filter',
      'listPets.default-limit',
      'listPets.limit',
      'createPet.echo',
      'createPet.int64',
      'getPet.found',
      'stateful.model',
      'concurrency.create',
    ]);
    expect(checks.find((check) => check.id === 'listPets.default-limit')!.rule).toBe('Endpoints §1 listPets, rule 2: when `limit` is omitted, at most 20 animals are returned.');
    expect(checks.filter((check) => check.writes).map((check) => check.id)).toEqual(['auth.createPet', 'createPet.required-fields', 'createPet.invalid-body', 'createPet.echo', 'createPet.int64', 'stateful.model', 'concurrency.create']);
    expect(new Set(checks.filter((check) => check.writes).map((check) => check.readOnlySkip))).toEqual(new Set(['read-only: this check must create pets']));
  });

  test('an evolved spec: new kinds of checks, generated rule texts citing the operation', async () => {
    const model = await corpus('delete');
    expect(isSeedShaped(model)).toBe(false);
    const checks = checksFor(model);
    const ids = checks.map((check) => check.id);
    expect(ids).toEqual(expect.arrayContaining(['auth.deletePet', 'deletePet.gone', 'listPets.status-filter', 'createPet.echo']));
    expect(checks.find((check) => check.id === 'deletePet.gone')!.rule).toContain('deletePet (DELETE /pets/{petId})');
    expect(checks.find((check) => check.id === 'listPets.default-limit')!.rule).toContain('listPets (GET /pets)');
  });

  test('replace, update, filters, limits, a second resource and an unmapped operation each get their checks', async () => {
    expect(checksFor(await corpus('put-update')).map((c) => c.id)).toContain('replacePet.persisted');
    expect(checksFor(await corpus('patch-update')).map((c) => c.id)).toContain('updatePet.persisted');
    expect(checksFor(await corpus('boolean-filter')).map((c) => c.id)).toContain('listPets.vaccinated-filter');
    const bounds = checksFor(await corpus('limit-bounds'));
    expect(bounds.find((c) => c.id === 'listPets.default-limit')!.rule).toContain('at most 10 records');
    const second = checksFor(await corpus('second-resource')).map((c) => c.id);
    expect(second).toEqual(expect.arrayContaining(['createOwner.echo', 'getOwner.found', 'getOwner.not-found', 'auth.listOwners']));
    const unmapped = checksFor(await corpus('unmapped-operation')).map((c) => c.id);
    expect(unmapped).toEqual(expect.arrayContaining(['getInventory.documented', 'auth.getInventory']));
    const open = checksFor(await corpus('no-security')).map((c) => c.id);
    expect(open.filter((id) => id.startsWith('auth.'))).toEqual([]);
  });

  test('what a spec declares brings its checks: refusals of every write body, client-chosen ids, pages, none where the spec says nothing', async () => {
    const ids = async (name: string): Promise<string[]> => checksFor(await loadModel(join(PACKAGE_ROOT, 'test', 'suite-specs', `${name}.yaml`))).map((check) => check.id);
    expect(await ids('write-keywords')).toEqual(expect.arrayContaining(['replaceBox.required-fields', 'replaceBox.invalid-body', 'updateBox.invalid-body']));
    expect(await ids('write-keywords')).not.toContain('updateBox.required-fields');
    expect(await ids('client-forms')).toEqual(expect.arrayContaining(['createDog.client-id', 'replaceDog.invalid-body']));
    expect(await ids('paged')).toEqual(expect.arrayContaining(['listDogs.pages', 'listCats.pages', 'listBirds.pages']));
    const seed = checksFor(await loadModel()).map((check) => check.id);
    expect(seed.filter((id) => id.endsWith('.client-id') || id.endsWith('.pages'))).toEqual([]);
  });

  test('an operation served at its own servers is skipped, saying where; a singleton read has no absent-id check (D78)', async () => {
    const checks = checksFor(await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'cloud-extras-3.0.yaml')));
    const skipped = checks.filter((check) => check.skip !== undefined);
    expect(skipped.map((check) => check.id)).toEqual(['inference_upload_batch_file.documented']);
    expect(skipped[0]!.skip).toContain('https://');
    const ids = checks.map((check) => check.id);
    expect(ids).toEqual(expect.arrayContaining(['certificates_get.not-found', 'kubernetes_get_clusterLintResults.found', 'genai_create_model_api_key.documented']));
    expect(ids).not.toContain('kubernetes_get_clusterLintResults.not-found');
  });
});
