import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { createMock } from './index.js';
import type { MockRequest } from './messages.js';

/**
 * Each operation is compiled on its first request (spec/DECISIONS.md › D580): its answers must not depend on which
 * operations were compiled before it. Two mocks of one description, each from its own reading of the file (no
 * cache of one is warm for the other), are asked every read in opposite orders; every answer must be the same.
 */

const KEY = 'lazy-operations-key';
const DESCRIPTIONS = [join(PACKAGE_ROOT, 'spec', 'openapi.yaml'), join(PACKAGE_ROOT, 'mock', 'fixtures', 'shop.openapi.json'), join(PACKAGE_ROOT, 'mock', 'fixtures', 'wild-shapes.openapi.yaml'), join(PACKAGE_ROOT, 'mock', 'fixtures', 'answers.yaml')];

/** A read of each GET operation: its path with each parameter as its example, else `1`; the key in every place a scheme may read it. */
function reads(api: ApiModel): MockRequest[] {
  return api.operations
    .filter((op) => op.method === 'GET')
    .map((op) => {
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(op.pathParams.find((p) => p.name === name)?.example ?? '1')));
      return { method: 'GET', url: `${api.basePath}${path}?api_key=${KEY}`, headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, host: 'localhost' } };
    });
}

describe('operations compiled on their first request (D580)', () => {
  it.each(DESCRIPTIONS)('%s: every read answers the same whichever operation was compiled first', async (spec) => {
    const forward = await createMock({ model: await loadModel(spec), apiKeys: [KEY] });
    const backward = await createMock({ model: await loadModel(spec), apiKeys: [KEY] });
    const asked = reads(forward.api);
    expect(asked.length).toBeGreaterThan(1);
    const answer = (mock: typeof forward, request: MockRequest): string => {
      const response = mock.handle(request);
      return JSON.stringify({ status: response.status, headers: response.headers, body: response.body, bytes: response.bytes?.toString('base64') });
    };
    const first = asked.map((request) => answer(forward, request));
    const last = [...asked].reverse().map((request) => answer(backward, request)).reverse();
    expect(last).toEqual(first);
  });
});
