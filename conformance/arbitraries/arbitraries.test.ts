import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { exactJson, parseExact, toView } from '../../model/json.js';
import { compile, createAjv, INT64_MAX, INT64_MIN, toJsonSchema, type Schema } from '../../model/schema.js';
import { canonicalise } from './canonical.js';
import { integerIn } from './integers.js';
import { invalidValuesOf } from './invalid.js';
import { invalidFilterValues } from './query-strings.js';
import { valueOf } from './schema-values.js';

// A record schema using every keyword a spec of this style uses, written as OpenAPI 3.0 (nullable, boolean
// exclusive bounds) and turned into 2020-12 as the model does.
const RECORD = toJsonSchema(
  {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'chipNumber', 'code'],
    properties: {
      id: { type: 'integer', format: 'int64', readOnly: true },
      name: { type: 'string' },
      code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$', maxLength: 6 },
      nickname: { type: 'string', nullable: true, minLength: 2, maxLength: 12 },
      chipNumber: { type: 'integer', format: 'int64' },
      weight: { type: 'number', minimum: 0, exclusiveMaximum: true, maximum: 500 },
      age: { type: 'integer', minimum: 0, maximum: 40, multipleOf: 2 },
      status: { type: 'string', enum: ['available', 'pending', 'sold'] },
      vaccinated: { type: 'boolean' },
      born: { type: 'string', format: 'date' },
      seen: { type: 'string', format: 'date-time' },
      email: { type: 'string', format: 'email' },
      chip: { type: 'string', format: 'uuid' },
      site: { type: 'string', format: 'uri' },
      address: { type: 'string', format: 'ipv4' },
      tags: { type: 'array', items: { type: 'string', maxLength: 8 }, minItems: 1, maxItems: 3, uniqueItems: true },
      owner: { allOf: [{ type: 'object', required: ['first'], properties: { first: { type: 'string' } } }, { properties: { last: { type: 'string', maxLength: 5 } } }] },
      kind: { oneOf: [{ type: 'string', const: 'dog' }, { type: 'integer', minimum: 1, maximum: 3 }] },
    },
  },
  true,
);
const request: Schema = { ...RECORD, properties: { ...(RECORD['properties'] as Record<string, Schema>), id: false } };
const validate = compile(createAjv(), request, 'body');
const form = canonicalise(request);

describe('canonical form', () => {
  test('allOf merged, nullable folded, bounds made inclusive, readOnly forbidden in a request', () => {
    expect(form.kind).toBe('object');
    if (form.kind !== 'object') return;
    expect(form.forbidden).toEqual(['id']);
    expect(form.required).toEqual(['name', 'chipNumber', 'code']);
    expect(form.additional).toBe(false);
    expect(form.properties['owner']).toMatchObject({ kind: 'object', required: ['first'], properties: { first: { kind: 'string' }, last: { kind: 'string', maxLength: 5 } } });
    expect(form.properties['nickname']).toMatchObject({ kind: 'string', nullable: true, minLength: 2, maxLength: 12 });
    expect(form.properties['weight']).toMatchObject({ kind: 'number', min: 0, max: 500 });
    expect(form.properties['age']).toMatchObject({ kind: 'integer', min: 0n, max: 40n, multipleOf: 2n });
    expect(form.properties['chipNumber']).toMatchObject({ kind: 'integer', int64: true, min: undefined });
    expect(form.properties['kind']).toMatchObject({ kind: 'union' });
    expect(canonicalise({ const: 3 })).toEqual({ kind: 'enum', values: [3] });
    expect(canonicalise({ type: ['string', 'null'] })).toMatchObject({ kind: 'string', nullable: true });
  });
});

describe('valid values', () => {
  test('almost every raw value (before the validator filters) is valid: the generator knows every keyword', () => {
    const values = fc.sample(valueOf(form, { integers: 'int64', strings: 'any' }), { numRuns: 300, seed: 42 });
    const refused = values.filter((value) => !validate(toView(value)));
    // Only `kind` may rarely miss (a oneOf branch is picked blindly); every other keyword is generated exactly.
    expect(refused.length, `refused: ${refused.slice(0, 3).map((value) => `${exactJson(value)}: ${validate(toView(value)) || validate.errors()}`).join('\n')}`).toBeLessThanOrEqual(3);
  });

  test('values survive the wire exactly: exactJson then parseExact gives the same validation view', () => {
    for (const value of fc.sample(valueOf(form, { integers: 'int64', strings: 'ordinary' }), { numRuns: 100, seed: 7 })) {
      const parsed = parseExact(exactJson(value));
      expect(parsed.ok && validate(parsed.document.view)).toBe(validate(toView(value)));
    }
  });

  test('int64 integers start with the edges and cover the whole range; safe integers stay within ±(2^53-1)', () => {
    const drawn = fc.sample(integerIn(INT64_MIN, INT64_MAX), { numRuns: 400, seed: 1 });
    expect(drawn).toContain(INT64_MAX);
    expect(drawn).toContain(INT64_MIN);
    expect(drawn.some((v) => v > 2n ** 53n || v < -(2n ** 53n))).toBe(true);
    const safe = fc.sample(valueOf(canonicalise({ type: 'integer', format: 'int64' }), { integers: 'safe', strings: 'ordinary' }), { numRuns: 200, seed: 1 }) as bigint[];
    expect(safe.every((v) => v <= 2n ** 53n - 1n && v >= -(2n ** 53n - 1n))).toBe(true);
  });
});

describe('invalid values', () => {
  // The base of the fixed invalid cases is the fullest value, as the suite draws it (every member has a value to break).
  const [sample] = fc.sample(valueOf(form, { integers: 'int64', strings: 'ordinary', full: true }).filter((v) => validate(toView(v))), { numRuns: 1, seed: 3 });
  const cases = invalidValuesOf(form, sample, () => 7);

  test('every kind of fault the schema allows is derived', () => {
    const kinds = cases.map((c) => c.kind).join('\n');
    for (const kind of [
      'with a property the schema does not allow',
      'with the read-only id',
      'name not a string',
      'code not matching the pattern',
      'code longer than maxLength 6',
      'nickname shorter than minLength 2',
      'chipNumber outside int64: 9223372036854775808',
      'weight above the maximum',
      'age not a multiple of 2',
      'age below the minimum 0',
      'status outside the enum',
      'vaccinated not a boolean',
      'born not a date',
      'email not a email',
      'tags more than maxItems 3',
      'tags repeated items',
      'owner without the required first',
      'owner last longer than maxLength 5',
      'name null where the schema does not allow it',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  test('the spec refuses each derived invalid value placed in a valid body (int64 literals sent as written)', () => {
    const accepted = cases.filter((c) => {
      const parsed = parseExact(exactJson(c.value));
      return parsed.ok && validate(parsed.document.view);
    });
    expect(accepted.map((c) => `${c.kind}: ${exactJson(c.value)}`)).toEqual([]);
  });
});

describe('invalid filter values', () => {
  const schema: Schema = { type: 'string', enum: ['open', 'closed'] };
  const filter = { parameter: { name: 'state', in: 'query' as const, required: false, schema, type: 'string', int64: false, validate: compile(createAjv(), schema) }, property: 'state', values: ['open', 'closed'] };

  test("draw, refuse and shrink exactly as fast-check's binary unit does, without its table of every character", () => {
    const drawn = invalidFilterValues(filter)!;
    // The same arbitrary over fast-check's own unit: any difference in a draw or a shrink would change a run's requests.
    const reference = fc.oneof(fc.constantFrom(...drawn.fixed), fc.string({ unit: 'binary', maxLength: 12 })).filter((text) => !['open', 'closed'].includes(text));
    for (const seed of [1, 7, 42]) expect(fc.sample(drawn.random, { seed, numRuns: 500 })).toEqual(fc.sample(reference, { seed, numRuns: 500 }));
    for (const value of ['abc', '\ud800', 'a\udfff', '\u{1F600}x', '\u{10FFFF}', '\uFFFF', '', 'x'.repeat(13)]) expect(drawn.random.canShrinkWithoutContext(value)).toBe(reference.canShrinkWithoutContext(value));
    const shrinks = (arbitrary: fc.Arbitrary<string>): string[] => [...arbitrary.shrink('z\u{1F600}\u{10000}\ud7ff\ue000', undefined).take(40)].map((shrunk) => shrunk.value);
    expect(shrinks(drawn.random)).toEqual(shrinks(reference));
  });
});
