import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A create whose documented success is a scalar (spec/DECISIONS.md › D552): the mock answers the new key where the
 * scalar's schema can hold it (an integer, a string), else a valid sample (a boolean), never the record its schema
 * refuses; the suite reads the record back by the key so answered, and its create checks pass on the mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Scalar answers, version: '1' }
paths:
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/json: { schema: { $ref: '#/components/schemas/NewNote' } }
      responses:
        '200':
          description: The new note's id.
          content:
            application/json: { schema: { type: integer } }
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters:
        - { name: noteId, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: The note.
          content:
            application/json: { schema: { $ref: '#/components/schemas/Note' } }
        '404': { description: No such note. }
  /labels:
    post:
      operationId: createLabel
      requestBody:
        required: true
        content:
          application/json: { schema: { $ref: '#/components/schemas/NewNote' } }
      responses:
        '200':
          description: The new label's id, as text.
          content:
            application/json: { schema: { type: string } }
  /labels/{labelId}:
    get:
      operationId: getLabel
      parameters:
        - { name: labelId, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: The label.
          content:
            application/json: { schema: { $ref: '#/components/schemas/Label' } }
        '404': { description: No such label. }
  /flags:
    post:
      operationId: createFlag
      requestBody:
        required: true
        content:
          application/json: { schema: { $ref: '#/components/schemas/NewNote' } }
      responses:
        '200':
          description: Whether it was stored.
          content:
            application/json: { schema: { type: boolean } }
  /flags/{flagId}:
    get:
      operationId: getFlag
      parameters:
        - { name: flagId, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: The flag.
          content:
            application/json: { schema: { $ref: '#/components/schemas/Flag' } }
        '404': { description: No such flag. }
components:
  schemas:
    NewNote:
      type: object
      required: [text]
      properties:
        text: { type: string, minLength: 1, maxLength: 40 }
    Note:
      type: object
      required: [id, text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string }
    Label:
      type: object
      required: [id, text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string }
    Flag:
      type: object
      required: [id, text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string }
`;

const started = specMock('scalar-answer', SPEC, []);

/** POSTs `{text}` to `path` on the mock: the status and the body as text. */
async function create(path: string, text: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${started.mock.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
  return { status: response.status, body: await response.text() };
}

describe('a create that answers a scalar (D552)', () => {
  test('an integer answer is the new id, by which the record is read', async () => {
    const answer = await create('/notes', 'first');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/^\d+$/);
    const read = await fetch(`${started.mock.baseUrl}/notes/${answer.body}`);
    expect(await read.json()).toEqual({ id: Number(answer.body), text: 'first' });
  });

  test('a string answer is the new id as text, a boolean answer a boolean', async () => {
    const label = await create('/labels', 'second');
    expect(typeof JSON.parse(label.body)).toBe('string');
    const read = await fetch(`${started.mock.baseUrl}/labels/${JSON.parse(label.body) as string}`);
    expect(await read.json()).toMatchObject({ text: 'second' });
    const flag = await create('/flags', 'third');
    expect(typeof JSON.parse(flag.body)).toBe('boolean');
  });

  test("the suite's checks of the integer and string creates pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: '', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => /^(createNote|createLabel|getNote|getLabel)\./.test(id));
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
