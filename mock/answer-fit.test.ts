import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../test/in-process.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { createMock } from './index.js';

/** A record operation's answer fits its own schema where it is not the record's (spec/DECISIONS.md › D155). */
describe('a create whose answer schema is not the record schema', () => {
  it('answers a valid body of its own schema carrying the record\'s values that fit; the record stores the values the answer shows, so a read agrees', async () => {
    const mock = await createMock({ spec: join(PACKAGE_ROOT, 'mock', 'fixtures', 'answer-fit.openapi.yaml') });
    const op = mock.api.operations.find((o) => o.operationId === 'createAccount')!;
    const created = call(mock.handle, { method: 'POST', url: '/api/accounts', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ci-bot' }) });
    expect(created.status).toBe(200);
    expect(op.responses[0]!.validate!(created.json)).toBe(true);
    expect(created.json).toMatchObject({ name: 'ci-bot', role: 'member', secret: expect.any(String) });
    const read = call(mock.handle, { url: `/api/accounts/${created.json.id as string}` });
    expect(read.json).toEqual({ id: created.json.id, name: 'ci-bot', role: 'member' });
    await mock.dispose();
  });
});

/** A list whose items name another schema than the record fits each item to it (spec/DECISIONS.md › D203). */
describe('a list whose item schema is not the record schema', () => {
  it("lists each record as a valid item of the list's own schema, carrying the record's values that fit", async () => {
    const mock = await createMock({ spec: join(PACKAGE_ROOT, 'mock', 'fixtures', 'list-item-fit.openapi.yaml') });
    const list = mock.api.operations.find((o) => o.operationId === 'listBadges')!;
    const created = call(mock.handle, { method: 'POST', url: '/api/badges', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'early' }) });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'early', kind: 'badge' });
    const listed = call(mock.handle, { url: '/api/badges' });
    expect(listed.status).toBe(200);
    expect(list.responses[0]!.validate!(listed.json)).toBe(true);
    const item = (listed.json.data as Record<string, unknown>[]).find((one) => one['id'] === created.json.id);
    expect(item).toMatchObject({ id: created.json.id, name: 'early', kind: 'organization.badge', active: expect.any(Boolean) });
    const read = call(mock.handle, { url: `/api/badges/${created.json.id as string}` });
    expect(read.json).toEqual(created.json);
    await mock.dispose();
  });
});
