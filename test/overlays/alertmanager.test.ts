import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checksFor } from '../../conformance/catalogue.js';
import { listCheckIds } from '../../conformance/run-suite.js';
import { explain } from '../../mock/explain.js';
import { startMock, type StartedMock } from '../../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import type { ApiModel } from '../../model/model.js';
import { absentReason, sharedCorpusFile } from '../shared-corpus.js';

/**
 * An overlay changes one reading of a real description, and the mock and the suite both follow it: Alertmanager's
 * `DELETE /silence/{silenceID}` expires a silence (it stays, in the state `expired`), so the overlay
 * test/overlays/alertmanager-delete-expires.yaml gives the operation `x-resource: {role: none}`. Read without it, the
 * operation deletes a record of a resource (whichever resource holds `/silence/{silenceID}`); read with it, no
 * resource holds it: the mock answers it from the description, whatever the id, and the suite checks it as an
 * operation answered from the description (`deleteSilence.documented`), not as a delete.
 */
const FILE = 'alertmanager/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const OVERLAY = join(PACKAGE_ROOT, 'test', 'overlays', 'alertmanager-delete-expires.yaml');
const ABSENT = '/api/v2/silence/0b1e0d5c-2a3f-4c55-9a4e-0e1d2c3b4a59';

describe.skipIf(SPEC === undefined)(`an overlay on Alertmanager's description${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let plain: ApiModel;
  let overlaid: ApiModel;
  let mocks: { plain: StartedMock; overlaid: StartedMock };
  beforeAll(async () => {
    [plain, overlaid] = await Promise.all([loadModel(SPEC!), loadModel(SPEC!, { overlays: [OVERLAY] })]);
    mocks = { plain: await startMock({ model: plain, port: 0 }), overlaid: await startMock({ model: overlaid, port: 0, overlays: [OVERLAY] }) };
  }, 120_000);
  afterAll(async () => {
    await Promise.all([mocks?.plain.close(), mocks?.overlaid.close()]);
  });

  test('the model: deleteSilence is a delete without the overlay, answered from the description with it, and explain says why', () => {
    const before = plain.operations.find((op) => op.operationId === 'deleteSilence')!;
    const after = overlaid.operations.find((op) => op.operationId === 'deleteSilence')!;
    expect(before.role).toBe('delete');
    expect(after.resource).toBeUndefined();
    expect(after.role).toBeUndefined();
    const shown = explain(overlaid, undefined, [OVERLAY]);
    expect(shown.overlays).toEqual([OVERLAY]);
    expect(shown.answered.find((op) => op.operationId === 'deleteSilence')).toMatchObject({ status: 200, from: 'empty', reason: 'its x-resource says role: none, so no resource holds it', decision: 'D32' });
    expect(explain(plain).resources.flatMap((resource) => resource.operations).find((op) => op.operationId === 'deleteSilence')).toMatchObject({ part: 'delete' });
  });

  test('the mock follows it: a silence no one made is a 404 to delete without the overlay, a 200 with it', async () => {
    expect((await fetch(`${mocks.plain.origin}${ABSENT}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${mocks.overlaid.origin}${ABSENT}`, { method: 'DELETE' })).status).toBe(200);
  });

  test('the suite follows it: deleteSilence is checked as an operation answered from the description, through the target\'s overlays too', async () => {
    const ids = (model: ApiModel): string[] => checksFor(model).map((check) => check.id).filter((id) => id.startsWith('deleteSilence.'));
    expect(ids(plain)).not.toContain('deleteSilence.documented');
    expect(ids(overlaid)).toEqual(['deleteSilence.documented']);
    // A run reads the description as the target names it, overlays included.
    const listed = await listCheckIds({ baseUrl: mocks.overlaid.baseUrl, apiKey: '', spec: SPEC!, overlays: [OVERLAY] });
    expect(listed).toContain('deleteSilence.documented');
    expect(await listCheckIds({ baseUrl: mocks.plain.baseUrl, apiKey: '', spec: SPEC! })).not.toContain('deleteSilence.documented');
  });
});
