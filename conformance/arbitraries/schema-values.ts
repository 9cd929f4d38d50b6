import fc from 'fast-check';
import { canonicalJson, toView } from '../../model/json.js';
import type { Schema, Validator } from '../../model/schema.js';
import { canonicalise, isUnconstrainedString, type Canonical } from './canonical.js';
import { integerBounds, integerIn, type IntegerRange } from './integers.js';
import { boundedFilter, NotRun } from './bounded.js';
import { patternString } from './pattern.js';
import { boundedString, CORNER_STRINGS, formatString, isOrdinaryString, ordinaryString, unusualString } from './strings.js';

/**
 * How to draw values: `integers` as the target allows (`safe` keeps them within ±(2^53-1)); `strings`:
 * `ordinary` draws only strings every implementation must accept where the spec leaves a string unconstrained,
 * `any` also unusual ones (DECISIONS D2: they may be refused unless `--strict`).
 */
export interface ValueOptions {
  integers: IntegerRange;
  strings: 'ordinary' | 'any';
  /**
   * Every optional property present, arrays holding at least one item, never `null` where another value is
   * allowed: the base of the fixed invalid cases, so that each keyword of each member has a value to break.
   */
  full?: boolean;
}

/**
 * Valid values of a canonical schema. Integers are `bigint` (exact over int64 with `exactJson`),
 * optional properties present or absent, `oneOf`/`anyOf` by picking a branch, never a property the schema does
 * not name (DECISIONS D5). Callers filter through the compiled validator, which settles what this cannot (a
 * `pattern` with a length, a value matching two `oneOf` branches).
 */
export function valueOf(form: Canonical, options: ValueOptions, depth = 0): fc.Arbitrary<unknown> {
  const orNull = (arbitrary: fc.Arbitrary<unknown>, nullable: boolean): fc.Arbitrary<unknown> => (nullable && options.full !== true ? fc.oneof({ weight: 5, arbitrary }, { weight: 1, arbitrary: fc.constant(null) }) : arbitrary);
  switch (form.kind) {
    case 'any':
      return ordinaryString;
    case 'never':
      return fc.constant(undefined);
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...(form.values.length === 0 ? [null] : form.values));
    case 'boolean':
      return orNull(fc.boolean(), form.nullable);
    case 'integer': {
      const [min, max] = integerBounds(form.min, form.max, options.integers, form.int64);
      if (form.multipleOf !== undefined) {
        const step = form.multipleOf;
        // Bigint division truncates toward zero: the first and last multiples inside [min, max].
        const first = min >= 0n ? (min + step - 1n) / step : min / step;
        const last = max >= 0n ? max / step : -((-max + step - 1n) / step);
        return orNull(fc.bigInt({ min: first, max: last < first ? first : last }).map((k) => k * step), form.nullable);
      }
      return orNull(integerIn(min, max), form.nullable);
    }
    case 'number': {
      const min = form.min ?? -1e9;
      const max = form.max ?? 1e9;
      if (form.multipleOf !== undefined) {
        const step = form.multipleOf;
        return orNull(fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((k) => k * step), form.nullable);
      }
      if (form.single === true) {
        // Quarters within ±2^15: exact in 32 bits and written alike by a float and a double (D189).
        const low = Math.ceil(Math.max(min, -SINGLE_SPAN) * 4);
        const high = Math.floor(Math.min(max, SINGLE_SPAN) * 4);
        if (low <= high) return orNull(fc.integer({ min: low, max: high }).map((k) => (k === 0 ? 0 : k / 4)), form.nullable);
      }
      return orNull(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)), form.nullable);
    }
    case 'string':
      return orNull(stringOf(form, options), form.nullable);
    case 'array': {
      // Items no value meets (a write's list of ids held to its record's list of objects) leave the empty list only (D881).
      if (form.items.kind === 'never') return orNull(fc.constant([]), form.nullable);
      const items = valueOf(form.items, options, depth + 1);
      const maxLength = Math.max(form.minItems, Math.min(form.maxItems ?? form.minItems + 4, form.minItems + (depth > 2 ? 1 : 4)));
      const minLength = options.full === true ? Math.min(Math.max(1, form.minItems), form.maxItems ?? 1, maxLength) : form.minItems;
      const array = form.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => canonicalJson(v) }) : fc.array(items, { minLength, maxLength });
      return orNull(array, form.nullable);
    }
    case 'object': {
      const model = Object.fromEntries(Object.entries(form.properties).map(([name, sub]) => [name, valueOf(sub, options, depth + 1)]));
      const required = options.full === true ? Object.keys(model) : form.required.filter((name) => name in model);
      const optional = Object.keys(model).filter((name) => !required.includes(name));
      if (optional.length <= MAX_OPTIONAL_MEMBERS) return orNull(fc.record(model, { requiredKeys: required }), form.nullable);
      // An object of dozens of optional members, each drawn five times in six, made bodies of thousands of nodes:
      // a few of them, chosen afresh at each draw, still reach every member across draws (D803).
      const chosen = fc.subarray(optional, { maxLength: MAX_OPTIONAL_MEMBERS });
      const drawn = (names: string[]): fc.Arbitrary<Record<string, unknown>> => {
        const kept = Object.keys(model).filter((name) => required.includes(name) || names.includes(name));
        return fc.record(Object.fromEntries(kept.map((name) => [name, model[name]!])), { requiredKeys: kept });
      };
      return orNull(chosen.chain(drawn), form.nullable);
    }
    case 'union':
      // A union whose every branch is impossible admits no value: the check needing one is not run (D160).
      if (!admitsValue(form)) throw new NotRun('value', 'the spec admits no value here: every branch of its oneOf/anyOf is impossible');
      return fc.oneof(...form.branches.filter(admitsValue).map((branch) => valueOf(branch, options, depth)));
  }
}

/** Whether a canonical form admits some value: not `never`, no union without a possible branch, no impossible required member or item. */
export function admitsValue(form: Canonical): boolean {
  return admits(form, false);
}

/**
 * Whether {@link valueOf} can draw a value the form takes: as {@link admitsValue}, and besides, an object that requires
 * a member it describes nowhere (no `properties` entry) draws none, as only described members are drawn. A record's
 * schema requiring members a write cannot name (D883) is such an object, and a body held to it whole (D181) is then
 * known from its schema alone to give way to the body as required (D327), without spending a draw's bounds (D913).
 */
export function drawsValue(form: Canonical): boolean {
  return admits(form, true);
}

/** {@link admitsValue}, or with `drawn` {@link drawsValue}: they differ only on a required member no property describes. */
function admits(form: Canonical, drawn: boolean): boolean {
  switch (form.kind) {
    case 'never':
      return false;
    case 'union':
      return form.branches.some((branch) => admits(branch, drawn));
    case 'object':
      return form.nullable || form.required.every((name) => (form.properties[name] === undefined ? !drawn : admits(form.properties[name], drawn)));
    case 'array':
      return form.nullable || form.minItems === 0 || admits(form.items, drawn);
    default:
      return true;
  }
}

function stringOf(form: Extract<Canonical, { kind: 'string' }>, options: ValueOptions): fc.Arbitrary<string> {
  if (isUnconstrainedString(form)) return options.strings === 'any' ? fc.oneof(ordinaryString, unusualString) : ordinaryString;
  const fits = (text: string): boolean => [...text].length >= form.minLength && (form.maxLength === undefined || [...text].length <= form.maxLength);
  const byFormat = form.format === undefined ? undefined : formatString(form.format);
  if (byFormat !== undefined) return boundedFilter(byFormat, fits, `${form.format} string of length within bounds`);
  if (form.pattern !== undefined) return patternString(form.pattern, fits);
  return boundedString(form.minLength, form.maxLength);
}

/**
 * Valid values of a schema as the model holds it: canonicalised, drawn by {@link valueOf}, and kept only when the
 * model's compiled validator accepts them (so a generated value is valid by the spec's own judge).
 */
export function validValues(schema: Schema, validate: Validator, options: ValueOptions): fc.Arbitrary<unknown> {
  let form = forms.get(schema);
  if (form === undefined) forms.set(schema, (form = canonicalise(schema)));
  return boundedFilter(valueOf(form, options), (value) => validate(toView(value)), () => `value of ${describeSchema(schema)}`);
}

/** A short description of a schema for reports: its title, type and first keywords. */
function describeSchema(schema: Schema): string {
  const text = JSON.stringify(schema);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * Optional members an object draws at most (D803), where it declares more: all of them (the fullest body) only when
 * `full` asks for every member.
 */
const MAX_OPTIONAL_MEMBERS = 12;

/** Largest magnitude drawn for a `format: float` number: quarters up to it are exact in single precision, and a float's shortest printing writes them as they are. */
const SINGLE_SPAN = 2 ** 15;

/** Canonical forms by schema: a cache of what the schema alone determines (no run learns anything here). */
const forms = new WeakMap<Schema, Canonical>();

/**
 * Whether a value holds, in a string the schema leaves unconstrained, a string that is not ordinary: then an
 * implementation may refuse it with a 400 (DECISIONS D2) unless `--strict`.
 */
export function holdsUnusualString(form: Canonical, value: unknown): boolean {
  if (typeof value === 'string') return isUnconstrainedString(form) && !isOrdinaryString(value);
  if (form.kind === 'union') return form.branches.some((branch) => holdsUnusualString(branch, value));
  if (form.kind === 'array' && Array.isArray(value)) return value.some((item) => holdsUnusualString(form.items, item));
  if (form.kind === 'object' && value !== null && typeof value === 'object') {
    return Object.entries(value).some(([name, item]) => form.properties[name] !== undefined && holdsUnusualString(form.properties[name], item));
  }
  return false;
}

/** The top-level properties of an object form that are unconstrained strings (where the corner strings go). */
export function unconstrainedStringProperties(form: Canonical): string[] {
  return form.kind === 'object' ? Object.entries(form.properties).filter(([, sub]) => isUnconstrainedString(sub)).map(([name]) => name) : [];
}

export { CORNER_STRINGS };
