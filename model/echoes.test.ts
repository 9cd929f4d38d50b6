import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { echoedMembers } from './echoes.js';
import { loadModel, PACKAGE_ROOT } from './loader.js';

describe('the members a write no resource holds echoes (D280)', () => {
  test("a purchase whose request and answer share one object description echoes that description's required scalars", async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'gallery-3.1.yaml'));
    const op = (id: string) => model.operations.find((one) => one.operationId === id)!;
    expect(echoedMembers(op('buyGalleryPasses')).map((member) => member.name)).toEqual(['passType', 'passDate']);
    // Every other operation of the description: a resource's writes are judged as such, and a read sends no body.
    const others = model.operations.filter((one) => one.operationId !== 'buyGalleryPasses');
    expect(others.filter((one) => echoedMembers(one).length > 0).map((one) => one.operationId)).toEqual([]);
  });

  test("the seed's spec has none: its create belongs to a resource", async () => {
    const model = await loadModel();
    expect(model.operations.filter((one) => echoedMembers(one).length > 0)).toEqual([]);
  });
});
