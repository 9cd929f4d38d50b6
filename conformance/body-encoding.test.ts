import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { OperationModel } from '../model/model.js';
import { bodyForm } from './arbitraries/body.js';
import { invalidBodies } from './arbitraries/invalid-body.js';
import { decodeForm, encodeBody, formFields, requestMediaType, survivesEncoding } from './body-encoding.js';

const spec = join(PACKAGE_ROOT, 'test', 'suite-specs', 'client-forms.yaml');
const op = async (id: string): Promise<OperationModel> => (await loadModel(spec)).operations.find((candidate) => candidate.operationId === id)!;

describe('bodies go in the media type the operation declares', () => {
  test('a form-only create is sent urlencoded: arrays as repeated fields, int64 as digits, null left out', async () => {
    const create = await op('createDog');
    expect(requestMediaType(create)).toEqual({ mediaType: 'application/x-www-form-urlencoded', encoding: 'urlencoded' });
    const sent = encodeBody(create, { name: 'Rex Two', chip: 9223372036854775807n, tricks: ['sit', 'roll'], good: true, age: null });
    expect(sent).toEqual({ text: 'name=Rex+Two&chip=9223372036854775807&tricks=sit&tricks=roll&good=true', contentType: 'application/x-www-form-urlencoded' });
    expect(decodeForm(create.body!.schema, [...new URLSearchParams(sent.text)])).toEqual({ name: 'Rex Two', chip: 9223372036854775807n, tricks: ['sit', 'roll'], good: true });
  });

  test('a multipart replace is sent as text parts with the suite boundary', async () => {
    const replace = await op('replaceDog');
    const sent = encodeBody(replace, { name: 'Rex', age: 3n });
    expect(sent.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.text).toContain('Content-Disposition: form-data; name="age"\r\n\r\n3\r\n');
  });

  test('a field of a member that is an object or a text reads as the text unless it is JSON of an object (D520)', () => {
    const schema = { type: 'object', properties: { product: { anyOf: [{ type: 'object', properties: { name: { type: 'string' } } }, { type: 'string' }] }, shape: { type: 'object' } } };
    expect(decodeForm(schema, [['product', 'true'], ['shape', 'true']])).toEqual({ product: 'true', shape: true });
    expect(decodeForm(schema, [['product', '{"name":"x"}']])).toEqual({ product: { name: 'x' } });
  });

  test('only values that read back as sent are valid form bodies (no null, no empty list)', async () => {
    const create = await op('createDog');
    expect(survivesEncoding(create, create.body!, { name: 'Rex', tricks: ['sit'] })).toBe(true);
    expect(survivesEncoding(create, create.body!, { name: 'Rex', tricks: [] })).toBe(false);
    // UTF-8 on the wire has no lone surrogate (D206); a pair is whole.
    expect(survivesEncoding(create, create.body!, { name: '\ud800', tricks: ['sit'] })).toBe(false);
    expect(survivesEncoding(create, create.body!, { name: 'R\ud83d\ude00x', tricks: ['sit'] })).toBe(true);
    expect(formFields({ name: 'Rex', age: null })).toEqual([['name', 'Rex']]);
  });

  test('invalid form bodies are those the spec still refuses once read back; JSON-only cases are not sent as forms', async () => {
    const create = await op('createDog');
    const cases = invalidBodies(create, bodyForm(create), { name: 'Rex', age: 3n, tricks: ['sit'] }, () => undefined, () => 1);
    const kinds = cases.map((c) => c.kind).join('\n');
    expect(kinds).toContain('age above the maximum 30');
    expect(kinds).toContain('tricks more than maxItems 4');
    expect(kinds).not.toContain('malformed JSON');
    expect(kinds).not.toContain('age not an integer: "12"');
    expect(cases.every((c) => c.contentType === 'application/x-www-form-urlencoded')).toBe(true);
  });

  test('an empty body is refused only where the request body is required', async () => {
    const create = await op('createDog');
    const kinds = (required: boolean) => invalidBodies({ ...create, body: { ...create.body!, required } }, bodyForm(create), { name: 'Rex' }, () => undefined, () => 1).map((c) => c.kind);
    expect(kinds(true)).toContain('empty body ""');
    expect(kinds(false).some((kind) => kind.startsWith('empty body'))).toBe(false);
  });
});

describe('form fields read back through members of several shapes (D328)', () => {
  test('digits of a string-or-integer member read as an integer, and bracketed keys below an object-or-"" member by the object', () => {
    const schema = {
      type: 'object',
      properties: {
        tiers: { type: 'array', items: { type: 'object', properties: { up_to: { anyOf: [{ type: 'string', enum: ['inf'] }, { type: 'integer' }] } } } },
        options: { anyOf: [{ type: 'object', properties: { card: { type: 'object', properties: { count: { type: 'integer' }, enabled: { type: 'boolean' } } } } }, { type: 'string', enum: [''] }] },
      },
    };
    const fields: [string, string][] = [
      ['tiers[0][up_to]', '5'],
      ['tiers[1][up_to]', 'inf'],
      ['options[card][count]', '3'],
      ['options[card][enabled]', 'true'],
    ];
    expect(decodeForm(schema, fields)).toEqual({ tiers: [{ up_to: 5n }, { up_to: 'inf' }], options: { card: { count: 3n, enabled: true } } });
    expect(decodeForm(schema, [['options', '']])).toEqual({ options: '' });
    // A list member sent as one bracketed field reads as a list of one, as the mock reads it (D330).
    const filters = { type: 'object', properties: { filters: { type: 'object', properties: { countries: { type: 'array', items: { type: 'string' } } } } } };
    expect(decodeForm(filters, [['filters[countries]', 'x']])).toEqual({ filters: { countries: ['x'] } });
  });
});
