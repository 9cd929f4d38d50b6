import { describe, expect, it } from 'vitest';
import { compile, createAjv, type Schema } from './schema.js';
import { INLINE_LIMIT, unrolledSize } from './schema-refs.js';

/** A fresh object schema of `width` string members (`width + 2` nodes unrolled), capped at `maxLength`. */
function part(width: number, maxLength: number): Schema {
  return { type: 'object', properties: Object.fromEntries(Array.from({ length: width }, (_, i) => [`a${i}`, { type: 'string', maxLength }])) };
}

/** The `$id`s of the parts hoisted into `ajv` so far. */
function hoistedIds(ajv: ReturnType<typeof createAjv>): string[] {
  return Object.keys(ajv.schemas).filter((id) => id.startsWith('urn:schema:'));
}

describe('compiling a large schema whose parts are equal copies', () => {
  it('adds (and compiles) each distinct part once, and judges every copy as its own content says', () => {
    const ajv = createAjv();
    // Twenty equal copies and one that differs: each copy is its own object, as a model's views of one part are.
    const members: Record<string, Schema> = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, part(30, 5)]));
    members['odd'] = part(30, 2);
    const schema: Schema = { type: 'object', properties: members };
    expect(unrolledSize(schema)).toBeGreaterThan(INLINE_LIMIT);
    const validate = compile(ajv, schema, 'body');

    expect(validate({ p3: { a0: 'abcde' }, odd: { a1: 'ab' } })).toBe(true);
    expect(hoistedIds(ajv)).toHaveLength(2);
    expect(validate({ p3: { a0: 'abcdef' } })).toBe(false);
    expect(validate.issues()).toEqual([{ pointer: '/p3/a0', message: 'body/p3/a0 must NOT have more than 5 characters', keyword: 'maxLength' }]);
    expect(validate({ odd: { a1: 'abc' } })).toBe(false);
    expect(validate.issues()[0]?.pointer).toBe('/odd/a1');

    // Another schema made of more equal copies compiles nothing new in the same ajv.
    const again = compile(ajv, { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`q${i}`, part(30, 5)])) });
    expect(again({ q7: { a2: 'abcdef' } })).toBe(false);
    expect(hoistedIds(ajv)).toHaveLength(2);
  });

  it('keeps each copy of a part that contains itself apart, and each still judges the values nested in it', () => {
    const ajv = createAjv();
    const cyclic = (): Schema => {
      const node = part(30, 5);
      (node['properties'] as Record<string, Schema>)['child'] = node;
      return node;
    };
    const schema: Schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, cyclic()])) };
    const validate = compile(ajv, schema);
    expect(validate({ p4: { child: { child: { a0: 'abcde' } } } })).toBe(true);
    expect(validate({ p4: { child: { child: { a0: 'abcdef' } } } })).toBe(false);
    expect(validate.issues()[0]?.pointer).toBe('/p4/child/child/a0');
    expect(hoistedIds(ajv)).toHaveLength(20);
  });
});
