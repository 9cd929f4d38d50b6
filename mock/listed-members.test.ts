import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from './index.js';

/**
 * A list documented with a summary shape that requires members the record a create answers may lack
 * (spec/DECISIONS.md › D222): the listed records carry them, so the list answer matches its own schema, while the
 * create and the read still answer the record as it is.
 */
const SPEC = `openapi: 3.0.3
info: { title: Listed members, version: '1' }
paths:
  /boxes:
    post:
      operationId: createBox
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [label], properties: { label: { type: string } } } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Box' } } }
    get:
      operationId: listBoxes
      responses:
        '200':
          description: the boxes, in their summary shape
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/BoxSummary' } } } }
  /boxes/{boxId}:
    get:
      operationId: getBox
      parameters: [{ name: boxId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: one box
          content: { application/json: { schema: { $ref: '#/components/schemas/Box' } } }
        '404':
          description: not found
          content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } }
components:
  schemas:
    Box:
      type: object
      required: [id, label]
      properties:
        id: { type: integer, readOnly: true }
        label: { type: string }
        sealed: { type: boolean }
    BoxSummary:
      type: object
      required: [id, label, sealed]
      properties:
        id: { type: integer }
        label: { type: string }
        sealed: { type: boolean }
`;

let dir: string;
let mock: StartedMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'listed-members-'));
  writeFileSync(join(dir, 'spec.yaml'), SPEC);
  mock = await startMock({ spec: join(dir, 'spec.yaml'), port: 0 });
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a list's item schema requiring more than the record's (D222)", () => {
  test('each listed record carries the members the list requires; the record itself is unchanged', async () => {
    const created = await fetch(`${mock.baseUrl}/boxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: 'tools' }) });
    expect(created.status).toBe(201);
    const record = (await created.json()) as Record<string, unknown>;
    expect(record).not.toHaveProperty('sealed');
    const listed = (await (await fetch(`${mock.baseUrl}/boxes`)).json()) as Record<string, unknown>[];
    const mine = listed.find((box) => box['id'] === record['id']);
    expect(mine).toMatchObject({ id: record['id'], label: 'tools' });
    expect(typeof mine!['sealed']).toBe('boolean');
    for (const box of listed) expect(typeof box['sealed'], JSON.stringify(box)).toBe('boolean');
    const read = (await (await fetch(`${mock.baseUrl}/boxes/${String(record['id'])}`)).json()) as Record<string, unknown>;
    expect(read).toEqual(record);
  });
});
