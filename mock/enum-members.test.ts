import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from './index.js';

/**
 * A create body that allows any text where the record lists an enum (spec/DECISIONS.md › D221): the record keeps
 * only a value of its enum, so the create's answer and every later read match the documented record schema; the
 * suite expects no echo of a value sent outside that enum (judge/record-rules.ts `keptAsSent`).
 */
const SPEC = `openapi: 3.0.3
info: { title: Enum members, version: '1' }
paths:
  /machines:
    post:
      operationId: createMachine
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: { type: string }
                region: { type: string, description: 'Any region text; the server picks the nearest it runs in.' }
                size: { type: string }
                tier: { type: string, enum: [small, large] }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Machine' } } }
    get:
      operationId: listMachines
      responses:
        '200':
          description: the machines
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Machine' } } } }
  /machines/{machineId}:
    get:
      operationId: getMachine
      parameters: [{ name: machineId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: one machine
          content: { application/json: { schema: { $ref: '#/components/schemas/Machine' } } }
        '404':
          description: not found
          content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } }
components:
  schemas:
    Machine:
      type: object
      required: [id, name, region, tier]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        region: { type: string, enum: [east, west] }
        size: { type: string, enum: [s, m, l] }
        tier: { type: string, enum: [small, large] }
`;

let dir: string;
let mock: StartedMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'enum-members-'));
  writeFileSync(join(dir, 'spec.yaml'), SPEC);
  mock = await startMock({ spec: join(dir, 'spec.yaml'), port: 0 });
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${mock.baseUrl}/machines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('a record member whose enum the create body does not hold to (D221)', () => {
  test('a value outside the enum is not kept: a required member gets one of its values, an optional one none', async () => {
    const { status, json } = await post({ name: 'a', region: 'somewhere else', size: 'huge', tier: 'large' });
    expect(status).toBe(201);
    expect(['east', 'west']).toContain(json['region']);
    expect(json).not.toHaveProperty('size');
    expect(json['tier']).toBe('large');
    const read = await fetch(`${mock.baseUrl}/machines/${String(json['id'])}`);
    expect(await read.json()).toEqual(json);
  });

  test('a value of the enum is kept as sent', async () => {
    const { status, json } = await post({ name: 'b', region: 'west', size: 'm', tier: 'small' });
    expect(status).toBe(201);
    expect(json).toMatchObject({ name: 'b', region: 'west', size: 'm', tier: 'small' });
  });

  test("the suite's checks of the create and the read pass on the mock", async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: 'enum-members-key-0123456789', spec: join(dir, 'spec.yaml'), runs: 20 };
    const ids = (await listCheckIds(target)).filter((id) => /^(createMachine|getMachine)\./.test(id));
    expect(ids.length).toBeGreaterThan(2);
    const failed: string[] = [];
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      if (!outcome.ok) failed.push(outcome.report);
    }
    expect(failed.join('\n\n')).toBe('');
  }, 60_000);
});
