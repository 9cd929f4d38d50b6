import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { modelOf } from '../contract.js';
import type { RunState } from '../run-state.js';
import { bodyValues, requiredWhenUsing } from './body.js';

// A member whose description says "Required when using `other`" (GitHub's `merge_commit_title` beside
// `merge_commit_message`): the bodies the suite means to be taken never send `other` without it (D268).
test('a body never sends a member without the one its text says is required when using it', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'required-when-'));
  try {
    const file = join(folder, 'spec.json');
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        merge_commit_title: { type: 'string', enum: ['PR_TITLE', 'MERGE_MESSAGE'], description: 'Required when using `merge_commit_message`.\n\nThe default value for a merge commit title.' },
        merge_commit_message: { type: 'string', enum: ['PR_BODY', 'BLANK'] },
      },
      required: ['name'],
    };
    writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/repos': { post: { operationId: 'create', requestBody: { content: { 'application/json': { schema } } }, responses: { '201': { description: 'made' } } } } } }));
    const model = await modelOf(file);
    const op = model.operations.find((one) => one.operationId === 'create')!;
    expect(requiredWhenUsing(op.body!.schema)).toEqual([['merge_commit_title', 'merge_commit_message']]);
    const context = { run: { pins: new Map() } as unknown as RunState };
    const bodies = fc.sample(bodyValues(context, op, { integers: 'int64', strings: 'ordinary' }), { numRuns: 200, seed: 7 });
    expect(bodies.filter((body) => Object.hasOwn(body, 'merge_commit_message') && !Object.hasOwn(body, 'merge_commit_title'))).toEqual([]);
    // Not vacuous: the member is still sent, beside the one it needs.
    expect(bodies.some((body) => Object.hasOwn(body, 'merge_commit_message'))).toBe(true);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
