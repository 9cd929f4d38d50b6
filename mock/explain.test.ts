import { describe, expect, it } from 'vitest';
import { call } from '../test/in-process.js';
import type { Explanation } from './explain.js';
import { createMock, loadApi } from './index.js';

describe('GET /__admin/explain (the console\'s Explain tab)', () => {
  it('answers the explanation, with the checks of the catalogue handed in and the overlays named', async () => {
    const api = await loadApi();
    const mock = await createMock({ api, overlays: ['fix.yaml'], explainChecks: (model) => model.operations.map((op) => ({ id: `${op.operationId}.probe`, rule: `probe ${op.operationId}` })) });
    const answer = call(mock.handle, { url: '/__admin/explain' });
    expect(answer.status).toBe(200);
    const explanation = answer.json as Explanation;
    expect(explanation.overlays).toEqual(['fix.yaml']);
    expect(explanation.resources.map((resource) => resource.name)).toEqual(['pets']);
    expect(explanation.checks).toEqual(api.operations.map((op) => ({ operationId: op.operationId, checks: [{ id: `${op.operationId}.probe`, rule: `probe ${op.operationId}` }] })));
  });

  it('lists no checks where no catalogue was handed in, and says so by leaving them out', async () => {
    const mock = await createMock({ api: await loadApi(), explainChecks: undefined });
    const explanation = call(mock.handle, { url: '/__admin/explain' }).json as Explanation;
    expect(explanation.resources[0]!.operations.map((op) => `${op.part} ${op.operationId}`)).toEqual(['list listPets', 'create createPet', 'read getPet']);
    expect(explanation.checks).toBeUndefined();
  });
});
