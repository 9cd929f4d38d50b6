import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { OperationModel } from '../model/model.js';
import { bodyValues } from './arbitraries/body.js';
import { judgeResponseBody } from '../judge/exchange.js';

const op = async (file: string, id: string): Promise<OperationModel> => (await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', file))).operations.find((candidate) => candidate.operationId === id)!;

describe('what the suite sends to looser writes and non-JSON answers', () => {
  test('a form update whose status is any string draws only the statuses the record admits', async () => {
    const update = await op('bookshop-2.0.yaml', 'updateBookWithForm');
    const statuses = fc.sample(bodyValues({ run: { pins: new Map() } }, update, { integers: 'int64', strings: 'ordinary' }), { numRuns: 60, seed: 7 }).map((body) => body['status']).filter((status) => status !== undefined);
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(['available', 'pending', 'sold']).toContain(status);
  });

  test('a documented image/png answer is judged by its Content-Type, not read as JSON; an undocumented type still fails', async () => {
    const read = await op('gallery-3.1.yaml', 'getPassCode');
    const png = '\u0089PNG\r\n';
    expect(judgeResponseBody(read, { status: 200, headers: { 'content-type': 'image/png' }, text: png }).violations).toEqual([]);
    const wrong = judgeResponseBody(read, { status: 200, headers: { 'content-type': 'image/gif' }, text: png }).violations;
    expect(wrong.map((violation) => violation.rule)).toContain('media-type');
  });
});
