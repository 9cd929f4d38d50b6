import { describe, expect, test } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadModel } from '../model/loader.js';
import { echoProblems } from '../judge/record-rules.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Members a create writes in another type or form than the record holds them, below the record's top level
 * (spec/DECISIONS.md › D890, D891): a rule is written with the id of the place it applies to, where the rule read back
 * holds the place object; with its steps' ids as text, where the record's steps hold integers; with its fields as
 * texts, where the record's map holds `{name, value}` objects. The mock reads each into the record's own form (the
 * place keyed by the id sent, the digits as the integer, the text as the object's `value`) and leaves out what it
 * cannot read so, and every answer of the record stays valid; the suite expects no echo of such a value as sent.
 */
const SPEC = `openapi: 3.0.3
info: { title: Rules, version: '1' }
paths:
  /rules:
    get:
      operationId: listRules
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Rule' } } } } }
    post:
      operationId: createRule
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/RuleWrite' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Rule' } } } }
  /rules/{ruleId}:
    get:
      operationId: getRule
      parameters: [{ name: ruleId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Rule' } } } }
        '404': { description: None. }
components:
  schemas:
    RuleWrite:
      type: object
      required: [label]
      properties:
        label: { type: string, minLength: 1, maxLength: 20 }
        scope: { type: object, properties: { place: { type: string, minLength: 1, maxLength: 12 } } }
        steps: { type: array, maxItems: 3, items: { type: object, required: [id], properties: { id: { type: string, minLength: 1, maxLength: 8 } } } }
        fields: { type: object, additionalProperties: false, properties: { a: { type: string, maxLength: 10 }, b: { type: string, maxLength: 10 } } }
    Place:
      type: object
      required: [id, name]
      properties:
        id: { type: string }
        name: { type: string }
    Rule:
      type: object
      required: [id, label]
      properties:
        id: { type: string, readOnly: true }
        label: { type: string }
        scope: { type: object, properties: { place: { $ref: '#/components/schemas/Place' } } }
        steps: { type: array, items: { type: object, properties: { id: { type: integer }, name: { type: string } } } }
        fields: { type: object, additionalProperties: { type: object, required: [value], properties: { name: { type: string }, value: { type: string } } } }
`;

const PLACE = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
const RULE = {
  type: 'object',
  required: ['id', 'label'],
  properties: {
    id: { type: 'string' },
    label: { type: 'string' },
    scope: { type: 'object', properties: { place: PLACE } },
    steps: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    fields: { type: 'object', additionalProperties: { type: 'object', required: ['value'], properties: { name: { type: 'string' }, value: { type: 'string' } } } },
  },
};
const validRule = new Ajv2020().compile(RULE);

const started = specMock('refused-members', SPEC, ['k']);

describe('members written in another form than the record holds them, below its top level (D890, D891)', () => {
  test('the mock reads each into the record’s form, and the created, read and listed record is valid', async () => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' };
    const sent = { label: 'r', scope: { place: 'p-1' }, steps: [{ id: '42' }, { id: 'x' }], fields: { a: 'hi' } };
    const response = await fetch(`${started.mock.baseUrl}/rules`, { method: 'POST', headers, body: JSON.stringify(sent) });
    expect(response.status).toBe(201);
    const made = (await response.json()) as { id: string; scope: { place: { id: string } }; steps: { id?: number }[]; fields: Record<string, { value: string }> };
    expect(validRule(made), JSON.stringify(made)).toBe(true);
    expect(made.scope.place.id).toBe('p-1');
    expect(made.steps[0]?.id).toBe(42);
    expect(made.steps).toHaveLength(2);
    expect(made.steps[1]?.id).toBeUndefined();
    expect(made.fields['a']?.value).toBe('hi');
    const read = (await (await fetch(`${started.mock.baseUrl}/rules/${made.id}`, { headers })).json()) as unknown;
    expect(read).toEqual(made);
    const listed = (await (await fetch(`${started.mock.baseUrl}/rules`, { headers })).json()) as unknown[];
    expect(listed.every((rule) => validRule(rule)), JSON.stringify(listed)).toBe(true);
  });

  test('the judge expects no echo of a value the record refuses, and still of one it holds', async () => {
    const model = await loadModel(started.spec);
    const rules = model.resources.find((resource) => resource.name === 'rules')!;
    const got = { id: '1', label: 'r', scope: { place: { id: 'p-1', name: 'n' } }, steps: [{ id: 42 }, {}], fields: { a: { value: 'hi' } } };
    expect(echoProblems(rules, { label: 'r', scope: { place: 'p-1' }, steps: [{ id: '42' }, { id: 'x' }], fields: { a: 'hi' } }, got)).toEqual([]);
    // A value the record can hold is still expected back as sent: a server that changes it is caught.
    expect(echoProblems(rules, { label: 'r', steps: [{ id: 41 }, {}] }, got).map((problem) => problem.name)).toEqual(['steps']);
    expect(echoProblems(rules, { label: 'r', scope: { place: { id: 'p-2', name: 'n' } } }, got).map((problem) => problem.name)).toEqual(['scope']);
  });

  test("the suite's checks of the rules pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['createRule.echo', 'getRule.found', 'stateful.model']);
  }, 90_000);
});
