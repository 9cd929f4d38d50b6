import { describedDigits, describedRule } from './described.js';
import { isInt64, jsonType, type Schema } from '../../model/schema.js';

/**
 * A JSON Schema in one canonical form, as hypothesis-jsonschema's `canonicalish` makes it before generating
 * so that valid and invalid values come from one form: `allOf` merged, `type` lists and `nullable` turned into a `nullable` flag or a union, `enum` and
 * `const` folded into one list, numeric bounds folded into inclusive bounds. Each kind maps to one small
 * arbitrary (arbitraries/schema.ts), and invalid values come from the same form (arbitraries/invalid.ts).
 */
export type Canonical =
  | { kind: 'any' }
  | { kind: 'never' }
  | { kind: 'null' }
  | { kind: 'enum'; values: unknown[] }
  | { kind: 'boolean'; nullable: boolean }
  | { kind: 'integer'; nullable: boolean; min: bigint | undefined; max: bigint | undefined; multipleOf: bigint | undefined; int64: boolean }
  | { kind: 'number'; nullable: boolean; min: number | undefined; max: number | undefined; multipleOf: number | undefined; minExclusive?: boolean; maxExclusive?: boolean; single?: boolean }
  | { kind: 'string'; nullable: boolean; minLength: number; maxLength: number | undefined; pattern: string | undefined; format: string | undefined; described?: string }
  | { kind: 'array'; nullable: boolean; items: Canonical; minItems: number; maxItems: number | undefined; uniqueItems: boolean }
  | { kind: 'object'; nullable: boolean; properties: Record<string, Canonical>; required: string[]; forbidden: string[]; additional: boolean }
  | { kind: 'union'; branches: Canonical[] };

/** Merges the parts of an `allOf` (and the schema around it) into one schema: the tightest of every keyword. */
function mergeAllOf(schema: Schema): Schema {
  const parts = (schema['allOf'] as Schema[] | undefined) ?? [];
  if (parts.length === 0) return schema;
  const { allOf: _, ...rest } = schema;
  return parts.map(mergeAllOf).reduce(mergePair, rest);
}

function mergePair(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (key === 'properties') {
      const merged: Record<string, Schema> = { ...(mine as Record<string, Schema>) };
      for (const [name, sub] of Object.entries(value as Record<string, Schema>)) merged[name] = merged[name] === undefined ? sub : { allOf: [merged[name], sub] };
      out[key] = merged;
    } else if (key === 'required') out[key] = [...new Set([...(mine as string[]), ...(value as string[])])];
    else if (key === 'minimum' || key === 'minLength' || key === 'minItems' || key === 'exclusiveMinimum') out[key] = Math.max(mine as number, value as number);
    else if (key === 'maximum' || key === 'maxLength' || key === 'maxItems' || key === 'exclusiveMaximum') out[key] = Math.min(mine as number, value as number);
    else if (key === 'enum') out[key] = (mine as unknown[]).filter((v) => (value as unknown[]).some((w) => JSON.stringify(w) === JSON.stringify(v)));
    else if (key === 'type') {
      const left = Array.isArray(mine) ? mine : [mine];
      const right = Array.isArray(value) ? value : [value];
      out[key] = left.filter((t) => right.includes(t) || (t === 'integer' && right.includes('number')));
    } else if (key === 'additionalProperties' && (value === false || mine === false)) out[key] = false;
    else if (key === 'readOnly' || key === 'writeOnly' || key === 'uniqueItems') out[key] = mine === true || value === true;
    else if (key === 'items' && typeof mine === 'object' && mine !== null && typeof value === 'object' && value !== null) out[key] = { allOf: [mine, value] };
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(mine) && Array.isArray(value) && mine.length * value.length <= MAX_BRANCH_PAIRS) {
      // Both sides offer branches (a write's `anyOf: [object, ""]` held to its record's `anyOf: [object, null]`): a
      // value meets one of each, so the branches are their pairs; keeping one side's alone drew values the other
      // refuses (D881). Pairs that cannot meet fold to `never` and are dropped where the branches are read. Two
      // `items` are met both, the same way.
      out[key] = (mine as Schema[]).flatMap((left) => (value as Schema[]).map((right) => ({ allOf: [left, right] })));
    }
  }
  return out;
}

/** Pairs of branches {@link mergePair} writes at most where both sides have `anyOf`/`oneOf`; past it one side's are kept, as before. */
const MAX_BRANCH_PAIRS = 64;

const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

/** The canonical form of a (2020-12) schema; see {@link Canonical}. Recursive schemas were cut to `{}` by the model. */
export function canonicalise(input: Schema | boolean): Canonical {
  if (input === true) return { kind: 'any' };
  if (input === false) return { kind: 'never' };
  const schema = mergeAllOf(input);
  if (schema['not'] !== undefined && Object.keys(schema['not'] as object).length === 0) return { kind: 'never' };
  const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (branches !== undefined) {
    const { oneOf: _o, anyOf: _a, ...rest } = schema;
    const folded = branches.map((branch) => canonicalise(mergePair(rest, branch))).filter((c) => c.kind !== 'never');
    // A nullable union (`anyOf: [X, {type: null}]`) is X with its nullable flag (D131): X's own invalid values stay reachable.
    const others = folded.filter((c) => c.kind !== 'null');
    const other = others[0];
    if (others.length === 1 && folded.length > 1 && other !== undefined && 'nullable' in other) return { ...other, nullable: true };
    return folded.length === 1 ? folded[0]! : { kind: 'union', branches: folded };
  }
  const allowed = schema['const'] !== undefined ? [schema['const']] : (schema['enum'] as unknown[] | undefined);
  const declared = schema['type'] === undefined ? undefined : Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string];
  if (allowed !== undefined) {
    const values = declared === undefined ? allowed : allowed.filter((v) => declared.includes(jsonType(v)) || (jsonType(v) === 'integer' && declared.includes('number')));
    // Listed values none of which has a type the schema allows (`enum: [""]` merged with `type: object`) admit no
    // value (D881): drawing `null` in their place made a value both sides refuse.
    return values.length === 0 && allowed.length > 0 ? { kind: 'never' } : { kind: 'enum', values };
  }
  const types = (declared ?? inferTypes(schema)).filter((t): t is (typeof TYPES)[number] => (TYPES as readonly string[]).includes(t));
  if (types.length === 0) return declared === undefined ? { kind: 'any' } : { kind: 'never' };
  const nullable = types.includes('null');
  const concrete = types.filter((t): t is Exclude<(typeof TYPES)[number], 'null'> => t !== 'null' && !(t === 'integer' && types.includes('number')));
  if (concrete.length === 0) return { kind: 'null' };
  const forms = concrete.map((type) => single(type, schema, nullable));
  return forms.length === 1 ? forms[0]! : { kind: 'union', branches: forms };
}

/** Types implied by the keywords of a schema that states none (`properties` → object, `items` → array, …). */
function inferTypes(schema: Schema): string[] {
  if (schema['properties'] !== undefined || schema['required'] !== undefined || schema['additionalProperties'] !== undefined) return ['object'];
  if (schema['items'] !== undefined) return ['array'];
  if (schema['minLength'] !== undefined || schema['maxLength'] !== undefined || schema['pattern'] !== undefined || schema['format'] !== undefined) return ['string'];
  if (schema['minimum'] !== undefined || schema['maximum'] !== undefined) return ['number'];
  return [];
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function single(type: Exclude<(typeof TYPES)[number], 'null'>, schema: Schema, nullable: boolean): Canonical {
  switch (type) {
    case 'boolean':
      return { kind: 'boolean', nullable };
    case 'integer': {
      const lowInclusive = num(schema['minimum']);
      const lowExclusive = num(schema['exclusiveMinimum']);
      const highInclusive = num(schema['maximum']);
      const highExclusive = num(schema['exclusiveMaximum']);
      const lows = [lowInclusive === undefined ? undefined : BigInt(Math.ceil(lowInclusive)), lowExclusive === undefined ? undefined : BigInt(Math.floor(lowExclusive)) + 1n].filter((v) => v !== undefined);
      const highs = [highInclusive === undefined ? undefined : BigInt(Math.floor(highInclusive)), highExclusive === undefined ? undefined : BigInt(Math.ceil(highExclusive)) - 1n].filter((v) => v !== undefined);
      const multiple = num(schema['multipleOf']);
      const int32 = schema['format'] === 'int32';
      // Bounds only the description states ("Four-digit number", D98) narrow the values drawn.
      const digits = describedDigits(schema);
      if (digits !== undefined) {
        lows.push(digits.min);
        highs.push(digits.max);
      }
      return {
        kind: 'integer',
        nullable,
        min: lows.length > 0 ? lows.reduce((a, b) => (a > b ? a : b)) : int32 ? -(2n ** 31n) : undefined,
        max: highs.length > 0 ? highs.reduce((a, b) => (a < b ? a : b)) : int32 ? 2n ** 31n - 1n : undefined,
        multipleOf: multiple !== undefined && Number.isInteger(multiple) && multiple > 1 ? BigInt(multiple) : undefined,
        int64: isInt64(schema),
      };
    }
    case 'number': {
      const min = num(schema['exclusiveMinimum']) ?? num(schema['minimum']);
      const max = num(schema['exclusiveMaximum']) ?? num(schema['maximum']);
      // Exclusive bounds are kept inclusive here and the generator steps inside them; the validator filters the rest.
      const minExclusive = num(schema['exclusiveMinimum']) !== undefined && (num(schema['minimum']) ?? -Infinity) <= num(schema['exclusiveMinimum'])!;
      const maxExclusive = num(schema['exclusiveMaximum']) !== undefined && (num(schema['maximum']) ?? Infinity) >= num(schema['exclusiveMaximum'])!;
      // `format: float` is single precision (D189): a server may hold the value in 32 bits.
      const single = schema['format'] === 'float';
      return { kind: 'number', nullable, min, max, multipleOf: num(schema['multipleOf']), ...(minExclusive ? { minExclusive } : {}), ...(maxExclusive ? { maxExclusive } : {}), ...(single ? { single } : {}) };
    }
    case 'string': {
      // A rule only the description states (D98) narrows the values drawn; the spec's validator still judges them.
      const rule = describedRule(schema);
      const minLength = Math.max(num(schema['minLength']) ?? 0, rule?.minLength ?? 0);
      const maxLength = [num(schema['maxLength']), rule?.maxLength].filter((one): one is number => one !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);
      return {
        kind: 'string',
        nullable,
        minLength: maxLength !== undefined && minLength > maxLength ? num(schema['minLength']) ?? 0 : minLength,
        maxLength,
        pattern: typeof schema['pattern'] === 'string' ? schema['pattern'] : rule?.pattern,
        format: typeof schema['format'] === 'string' ? schema['format'] : undefined,
        ...(rule === undefined ? {} : { described: rule.says }),
      };
    }
    case 'array':
      return {
        kind: 'array',
        nullable,
        items: canonicalise((schema['items'] as Schema | boolean | undefined) ?? true),
        minItems: num(schema['minItems']) ?? 0,
        maxItems: num(schema['maxItems']),
        uniqueItems: schema['uniqueItems'] === true,
      };
    case 'object': {
      const properties: Record<string, Canonical> = {};
      const forbidden: string[] = [];
      for (const [name, sub] of Object.entries((schema['properties'] ?? {}) as Record<string, Schema | boolean>)) {
        const form = canonicalise(sub);
        if (form.kind === 'never') forbidden.push(name);
        else properties[name] = form;
      }
      const required = ((schema['required'] ?? []) as string[]).filter((name) => !forbidden.includes(name));
      return { kind: 'object', nullable, properties, required, forbidden, additional: schema['additionalProperties'] !== false };
    }
  }
}

/** Whether a canonical string is unconstrained (no length, pattern, format or enum): the seed's `name` gap (DECISIONS D2). */
export function isUnconstrainedString(form: Canonical): boolean {
  return form.kind === 'string' && form.minLength === 0 && form.maxLength === undefined && form.pattern === undefined && form.format === undefined;
}
