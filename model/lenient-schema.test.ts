import { describe, expect, it } from 'vitest';
import { canonicalise } from '../conformance/arbitraries/canonical.js';
import { lenientNotes, namedExamples, withoutNull, type LenientTally } from './lenient-schema.js';
import { validAnswer } from './samples.js';
import { compile, createAjv, createSchemaConverter, type SchemaFailures } from './schema.js';

/** Converts `schema` as a file of the given version would, and compiles it: the validator and the converter's tally. */
function read(schema: unknown, openapi30 = false) {
  const converter = createSchemaConverter(openapi30);
  const converted = converter(schema);
  return { converted, validate: compile(createAjv(), converted), tally: converter.lenient };
}

describe('schemas read leniently (D130)', () => {
  it('reads 3.0 nullable beside anyOf in a 3.1 file as "or null", and compiles', () => {
    const { validate, tally } = read({ anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true, description: 'd' });
    expect(validate(null)).toBe(true);
    expect(validate('a')).toBe(true);
    expect(validate(true)).toBe(false);
    expect(tally.get('nullable-in-3.1')).toBe(1);
    expect(tally.get('nullable-without-type')).toBe(1);
  });

  it('reads nullable with a type in a 3.1 file as a null type, and nullable: false as nothing', () => {
    const { converted, validate } = read({ type: 'object', properties: { a: { type: 'integer', nullable: true }, b: { type: 'string', nullable: false } } });
    const properties = converted['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['a']!['type']).toEqual(['integer', 'null']);
    expect(properties['b']).toEqual({ type: 'string' });
    expect(validate({ a: null, b: 'x' })).toBe(true);
    expect(validate({ b: null })).toBe(false);
  });

  it('keeps readOnly on the wrapper of a nullable schema without type', () => {
    const { converted } = read({ allOf: [{ type: 'string' }], nullable: true, readOnly: true });
    expect(converted['readOnly']).toBe(true);
    expect(converted['anyOf']).toHaveLength(2);
  });

  it('adds null to a nullable enum', () => {
    const { validate } = read({ enum: ['a', 'b'], nullable: true }, true);
    expect(validate(null)).toBe(true);
    expect(validate('c')).toBe(false);
  });

  it('reads boolean exclusive bounds in a 3.1 file and numeric ones in a 3.0 file', () => {
    const old = read({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false });
    expect(old.validate(0)).toBe(false);
    expect(old.validate(1)).toBe(true);
    expect(old.tally.get('boolean-exclusive-in-3.1')).toBe(1);
    const recent = read({ type: 'number', exclusiveMaximum: 5 }, true);
    expect(recent.validate(5)).toBe(false);
    expect(recent.validate(4)).toBe(true);
    expect(recent.tally.get('numeric-exclusive-in-3.0')).toBe(1);
  });

  it('turns an examples that is no list into a list, and counts unknown keywords once per kind', () => {
    const { converted, tally } = read({ type: 'object', examples: { a: 1 }, properties: { a: { type: 'integer', foo: 1 }, b: { type: 'string', bar: 2, 'x-ok': 1 } } });
    expect(converted['examples']).toEqual([{ a: 1 }]);
    expect(tally.get('examples-not-a-list')).toBe(1);
    expect(tally.get('unknown-keyword')).toBe(2);
    const notes = lenientNotes(tally);
    expect(notes).toHaveLength(2);
    expect(notes.find((line) => line.includes('keywords neither'))).toMatch(/^2 schemas: /);
  });
});

describe('nullable unions read as their other branch (D131)', () => {
  it('reads anyOf/oneOf of one schema and null as that schema, with the annotations and without a null default', () => {
    expect(withoutNull({ anyOf: [{ type: 'boolean' }, { type: 'null' }], title: 'Flag', default: null })).toEqual({ type: 'boolean', title: 'Flag' });
    expect(withoutNull({ oneOf: [{ enum: [null] }, { type: 'integer', minimum: 1 }] })).toEqual({ type: 'integer', minimum: 1 });
    expect(withoutNull({ type: ['string', 'null'], enum: ['a', null] })).toEqual({ type: 'string', enum: ['a'] });
  });

  it('leaves alone unions of two schemas and unions beside constraints', () => {
    const two = { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] };
    expect(withoutNull(two)).toBe(two);
    const constrained = { anyOf: [{ type: 'string' }, { type: 'null' }], maxLength: 3 };
    expect(withoutNull(constrained)).toBe(constrained);
  });

  it('a sample of a nullable union, or a nullable enum, is a value of its other branch', () => {
    expect(validAnswer({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 3 }] }).value).toBe(3);
    expect(validAnswer({ type: 'object', required: ['a'], properties: { a: { oneOf: [{ type: 'null' }, { type: 'string', enum: ['x'] }] } } }).value).toEqual({ a: 'x' });
    expect(validAnswer({ type: ['string', 'null'], enum: [null, 'on'] }).value).toBe('on');
  });

  it("the suite's canonical form of a nullable union is its branch flagged nullable", () => {
    expect(canonicalise({ anyOf: [{ type: 'boolean' }, { type: 'null' }] })).toEqual({ kind: 'boolean', nullable: true });
  });
});

describe('schemas no validator compiles (D134)', () => {
  it('a validator of one accepts every value, says why once, and counts what it let through', () => {
    const failures: SchemaFailures = { reasons: new Set(), uses: 0 };
    const validate = compile(createAjv(), { type: 'array', uniqueItems: 'yes' }, 'body', { failures, where: 'GET /labels 200' });
    expect(validate('anything')).toBe(true);
    expect(validate([1, 1])).toBe(true);
    expect(validate.failure()).toMatch(/^GET \/labels 200: the schema of body cannot be compiled \(uniqueItems/);
    expect(failures.uses).toBe(2);
    expect([...failures.reasons]).toEqual([validate.failure()]);
  });

  it('a dialect or an $id given twice is left out by the model, so the schema still compiles', () => {
    const { validate } = read({ $schema: 'http://json-schema.org/draft-04/schema#', allOf: [{ $id: 'a', type: 'string' }, { $id: 'a', maxLength: 2 }] });
    expect(validate('ab')).toBe(true);
    expect(validate('abc')).toBe(false);
    expect(validate.failure()).toBeUndefined();
  });
});

describe('examples written another way than a map of Example Objects (D130)', () => {
  it('reads a list, bare values and Example Objects, each way counted', () => {
    const tally: LenientTally = new Map();
    expect(namedExamples([1, 2], tally)).toEqual([{ name: undefined, value: 1 }, { name: undefined, value: 2 }]);
    expect(namedExamples({ a: { value: 1, summary: 's' }, b: { name: 'Tom' }, c: { externalValue: 'x.json' }, d: 3 }, tally)).toEqual([
      { name: 'a', value: 1 },
      { name: 'b', value: { name: 'Tom' } },
      { name: 'd', value: 3 },
    ]);
    expect([...tally]).toEqual([['examples-list', 1], ['example-without-value', 1]]);
  });
});
