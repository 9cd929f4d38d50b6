import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { PARENT_LINK } from '../model/model.js';
import { call } from '../test/in-process.js';
import { createMock } from './index.js';
import { keyedUnderParent } from './store/record-store.js';
import { editRecordText } from './store/record-text.js';

/**
 * A nested free-form member holds any text the client sends, control characters included, and comes back as sent:
 * the mock's own edits of a stored record (its key under a parent, D290; its link to the parent, D53) touch the
 * record's own members only, never a nested member of the same name. Asked at the boundary itself: every C0 control
 * character, DEL, a NUL alone, first, last and twice, in a nested member named like the record's key and in one named
 * like the mock's link; on the create's answer, the read and the list.
 */
const SPEC = `openapi: 3.0.3
info: {title: Schedules, version: '1'}
paths:
  /spaces:
    post:
      operationId: createSpace
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Space'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Space'}}}}
  /spaces/{space_id}:
    get:
      operationId: getSpace
      parameters: [{name: space_id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Space'}}}}
        '404': {description: none}
  /spaces/{space_id}/triggers:
    parameters: [{name: space_id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: listTriggers
      responses:
        '200': {description: all, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Trigger'}}}}}
    post:
      operationId: createTrigger
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Trigger'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Trigger'}}}}
        '404': {description: no such space}
  /spaces/{space_id}/triggers/{trigger_name}:
    parameters:
      - {name: space_id, in: path, required: true, schema: {type: integer}}
      - {name: trigger_name, in: path, required: true, schema: {type: string}}
    get:
      operationId: getTrigger
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Trigger'}}}}
        '404': {description: none}
components:
  schemas:
    Space:
      type: object
      properties:
        id: {type: integer, readOnly: true}
        title: {type: string}
    Trigger:
      type: object
      required: [name, details]
      properties:
        name: {type: string}
        details:
          type: object
          properties:
            cron: {type: string}
            body:
              type: object
              nullable: true
              description: free-form data handed on as it is
`;

const dir = mkdtempSync(join(tmpdir(), 'nested-controls-'));
writeFileSync(join(dir, 'spec.yaml'), SPEC);
const model = await loadModel(join(dir, 'spec.yaml'));
rmSync(dir, { recursive: true, force: true });
const mock = await createMock({ model, data: new Map() });
const send = (method: string, url: string, body?: unknown): ReturnType<typeof call> => call(mock.handle, { method, url, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });

const CONTROLS = [...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)), '\u007f'];
const TEXTS = [...CONTROLS.map((control) => `Rex${control}`), '\u0000', '\u0000Rex', 'a\u0000b\u0000c', '\\u0000', '\\\u0000'];

describe('a nested free-form member keeps every control character', () => {
  it('is asked of a resource whose keys the mock holds under their parent', () => {
    expect(model.resources.filter(keyedUnderParent).map((resource) => resource.collectionPath)).toEqual(['/spaces/{space_id}/triggers']);
  });

  it('comes back as sent from the create, the read and the list, beside a key that holds a NUL itself', () => {
    const space = (send('POST', '/spaces', { title: 'team' }).json as { id: number }).id;
    const sent = TEXTS.map((text, index) => ({ name: index === 0 ? 'key\u0000with a NUL' : `t${index}`, details: { cron: text, body: { name: text, [PARENT_LINK]: text, nested: { name: text } } } }));
    for (const trigger of sent) {
      expect(send('POST', `/spaces/${space}/triggers`, trigger)).toMatchObject({ status: 201, json: trigger });
      expect(send('GET', `/spaces/${space}/triggers/${encodeURIComponent(trigger.name)}`)).toMatchObject({ status: 200, json: trigger });
    }
    const listed = send('GET', `/spaces/${space}/triggers`);
    expect(listed.status).toBe(200);
    const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    expect([...(listed.json as { name: string }[])].sort(byName)).toEqual([...sent].sort(byName));
  });
});

describe('editRecordText', () => {
  const edit = { drop: PARENT_LINK, scoped: { member: 'name', separator: '\u0000' } };
  it('edits the members of a record and of each record of a page, never a nested member', () => {
    const record = { name: '7\u0000own', [PARENT_LINK]: 7, details: { name: '7\u0000kept', [PARENT_LINK]: 'kept' } };
    const shown = { name: 'own', details: { name: '7\u0000kept', [PARENT_LINK]: 'kept' } };
    expect(JSON.parse(editRecordText(JSON.stringify(record), edit))).toEqual(shown);
    expect(JSON.parse(editRecordText(JSON.stringify([record, { ...record, name: '7\u0000b' }]), edit))).toEqual([shown, { ...shown, name: 'b' }]);
  });

  it('drops the link where it stands first, last or alone, and leaves a text with nothing to edit as it is', () => {
    expect(editRecordText(JSON.stringify({ [PARENT_LINK]: 1, a: 2 }), edit)).toBe('{"a":2}');
    expect(editRecordText(JSON.stringify({ a: 2, [PARENT_LINK]: [1, { b: '}' }] }), edit)).toBe('{"a":2}');
    expect(editRecordText(JSON.stringify({ [PARENT_LINK]: 1 }), edit)).toBe('{}');
    const plain = JSON.stringify([{ name: 'a\\u0000', other: '\u0000' }]);
    expect(editRecordText(plain, edit)).toBe(plain);
  });
});
