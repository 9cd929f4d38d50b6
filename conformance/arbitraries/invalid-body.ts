import { isLosslessNumber } from 'lossless-json';
import { exactJson, parseExact, toView } from '../../model/json.js';
import type { BodyModel, OperationModel } from '../../model/model.js';
import { decodeForm, encodeBody, MULTIPART_BOUNDARY, takesForm } from '../body-encoding.js';
import type { Canonical } from './canonical.js';
import { invalidValuesOf, type ForbiddenValue } from './invalid.js';
import { isUnconstrainedString } from './canonical.js';

/**
 * A request body the operation must refuse with 400 (seed, createPet rule 1; Errors: "missing required fields
 * or holds invalid values"). `text` is the raw body; `marker` a property value unique to this body, so the
 * suite can look for a record created by mistake; `kind` says what is wrong, for the report.
 */
export interface InvalidBody {
  kind: string;
  text: string;
  /** The `Content-Type` it is sent with: the operation's (JSON, or the form it takes). */
  contentType: string;
  marker: Marker | undefined;
}

/** A top-level property and a value no other request of the run sends in it. */
export interface Marker {
  property: string;
  value: unknown;
}

/**
 * The properties of a create body that can carry a marker, best first: unconstrained strings, then strings that
 * hold 24 letters and digits, then integers with room for 10^6 values; required ones before optional ones.
 */
export function markerProperties(form: Canonical): string[] {
  if (form.kind !== 'object') return [];
  const score = (name: string): number => {
    const sub = form.properties[name]!;
    const required = form.required.includes(name) ? 0 : 10;
    if (isUnconstrainedString(sub)) return required;
    if (sub.kind === 'string' && sub.pattern === undefined && sub.format === undefined && sub.minLength <= 24 && (sub.maxLength ?? 24) >= 24) return required + 1;
    if (sub.kind === 'integer' && sub.multipleOf === undefined && (sub.max ?? 10n ** 18n) - (sub.min ?? -(10n ** 18n)) >= 10n ** 6n) return required + 2;
    return -1;
  };
  return Object.keys(form.properties).filter((name) => score(name) >= 0).sort((a, b) => score(a) - score(b));
}

/**
 * A marker value for `property` of `form`, unique to (`run`, `index`): a readable string, or an integer inside
 * the property's bounds (10^16 + n when the bounds allow it, as the seed's suite did).
 */
export function markerValue(form: Canonical, property: string, run: number, index: number): unknown {
  const sub = form.kind === 'object' ? form.properties[property] : undefined;
  if (sub?.kind === 'integer') {
    const offset = BigInt(run) * 1000n + BigInt(index);
    const min = sub.min ?? -(10n ** 18n);
    const max = sub.max ?? 10n ** 18n;
    const start = min <= 10n ** 16n && max >= 10n ** 16n + 10n ** 12n ? 10n ** 16n : min + (max - min) / 2n;
    return start + (offset % (max - start + 1n));
  }
  return isUnconstrainedString(sub ?? { kind: 'any' }) ? `conformance case ${run} ${index}` : `c${run}x${index}`.slice(0, 24);
}

/**
 * Whether the spec refuses a body as the operation reads it: the JSON text parsed exactly, or the form read back
 * by the body schema (see `decodeForm`). Invalid cases that turn out valid are dropped.
 */
function refusedBySpec(op: OperationModel, body: BodyModel, text: string): boolean {
  if (takesForm(op)) return !body.validate(toView(decodeForm(body.schema, parseFields(text))));
  const parsed = parseExact(text);
  return !parsed.ok || !body.validate(parsed.document.view);
}

/** A body text as the operation reads it: the exact JSON value, the form's fields by the schema, or `undefined` when it is not JSON. */
export function readCase(op: OperationModel, text: string): unknown {
  if (takesForm(op)) return decodeForm(op.body?.schema ?? {}, parseFields(text));
  const parsed = parseExact(text);
  return parsed.ok ? parsed.document.value : undefined;
}

/** The fields of a form text the suite wrote (urlencoded or multipart with its own boundary). */
function parseFields(text: string): [string, string][] {
  if (!text.startsWith(`--${MULTIPART_BOUNDARY}`)) return [...new URLSearchParams(text)];
  const fields: [string, string][] = [];
  for (const part of text.split(`--${MULTIPART_BOUNDARY}`).slice(1, -1)) {
    const match = /^\r\nContent-Disposition: form-data; name="([^"]*)"\r\n\r\n([\s\S]*)\r\n$/.exec(part);
    if (match !== null) fields.push([match[1]!, match[2]!]);
  }
  return fields;
}

/** A case as sent: `value` written as the operation takes it (JSON or a form), with the marker added. */
function caseOf(op: OperationModel, kind: string, value: Record<string, unknown>, marker: Marker | undefined): InvalidBody {
  const { text, contentType } = encodeBody(op, marker === undefined ? value : { ...value, [marker.property]: marker.value });
  return { kind, text, contentType, marker };
}

/**
 * Bodies missing required properties (seed, createPet rule 1): each required property dropped in turn, then all
 * of them, from a valid `base`. `mark(avoid)` gives the marker for a case, on a property other than `avoid`.
 */
export function missingRequiredBodies(op: OperationModel, form: Canonical, base: Record<string, unknown>, mark: (avoid: readonly string[]) => Marker | undefined): InvalidBody[] {
  if (form.kind !== 'object') return [];
  const cases: InvalidBody[] = [];
  for (const name of form.required) {
    const marker = mark([name]);
    const { [name]: _, ...rest } = { ...base, ...(marker === undefined ? {} : { [marker.property]: marker.value }) };
    cases.push({ ...caseOf(op, `without ${name}`, rest, undefined), marker });
  }
  if (form.required.length > 1) {
    const marker = mark(form.required);
    const rest = Object.fromEntries(Object.entries({ ...base, ...(marker === undefined ? {} : { [marker.property]: marker.value }) }).filter(([name]) => !form.required.includes(name)));
    cases.push({ ...caseOf(op, `without ${form.required.join(' and ')}`, rest, undefined), marker: marker !== undefined && Object.hasOwn(rest, marker.property) ? marker : undefined });
  }
  // A form with no member left is written as no text at all, which is no body: where the body is optional (OpenAPI's
  // default), that is a request the description allows, not one missing a member (D912).
  return op.body?.required === true ? cases : cases.filter((candidate) => candidate.text !== '');
}

/**
 * Every kind of invalid body built from a valid `base`, from the same canonical form as the valid values: each
 * property made invalid in turn (see {@link invalidValuesOf}: type, `null`, bounds, lengths, enum and const,
 * pattern, format, items, nested members), an extra or read-only property where the schema forbids it, and for
 * JSON bodies, JSON that is not an object, text that is not JSON, and (where the body is required) empty
 * bodies. Form bodies get the cases a form can carry. Only bodies the spec's own validator refuses are kept.
 */
export function invalidBodies(op: OperationModel, form: Canonical, base: Record<string, unknown>, mark: (avoid: readonly string[]) => Marker | undefined, forbiddenValue: ForbiddenValue): InvalidBody[] {
  return invalidBodyMakers(op, form, base, mark, forbiddenValue)
    .map((make) => make())
    .filter((candidate) => isRefused(op, candidate));
}

/** Whether the spec's own validator refuses `candidate` as `op` reads it (a case that turns out valid is no case). */
export function isRefused(op: OperationModel, candidate: InvalidBody): boolean {
  return op.body !== undefined && refusedBySpec(op, op.body, candidate.text);
}

/**
 * The cases of {@link invalidBodies}, each made only when called and not yet read back by the spec's validator:
 * a random run makes and checks one alone, since writing and reading back every case of a large body costs far
 * more than sending one. Called in order, they number their markers as {@link invalidBodies} does.
 */
export function invalidBodyMakers(op: OperationModel, form: Canonical, base: Record<string, unknown>, mark: (avoid: readonly string[]) => Marker | undefined, forbiddenValue: ForbiddenValue): (() => InvalidBody)[] {
  const body = op.body;
  if (body === undefined) return [];
  const cases: (() => InvalidBody)[] = [];
  const top = form.kind === 'object' ? invalidValuesOf(form, base, forbiddenValue) : [];
  for (const wrong of top) {
    if (wrong.value === null || typeof wrong.value !== 'object' || Array.isArray(wrong.value) || isLosslessNumber(wrong.value)) continue;
    const value = wrong.value as Record<string, unknown>;
    const touched = Object.keys(value).filter((name) => !Object.hasOwn(base, name) || value[name] !== base[name]);
    cases.push(() => caseOf(op, wrong.kind, value, mark(touched)));
  }
  const json = !takesForm(op);
  if (json) {
    const marker = mark([]);
    const valid = exactJson(marker === undefined ? base : { ...base, [marker.property]: marker.value });
    const inner = valid.slice(1, -1);
    const contentType = encodeBody(op, {}).contentType;
    for (const text of ['[]', `[${valid}]`, JSON.stringify('text'), '42', 'null', 'true']) cases.push(() => ({ kind: `JSON that is no object: ${text}`, text, contentType, marker: undefined }));
    const malformed = [valid.slice(0, -1), valid.slice(0, valid.length >> 1), `${valid}}`, `${valid} x`, valid.replaceAll('"', "'"), `{${inner.replace(/"([^"]+)":/g, '$1:')}}`, `{${inner},"conformance":NaN}`, `{${inner},"conformance":0x10}`, `{${inner},,"conformance":1}`];
    for (const text of malformed) cases.push(() => ({ kind: `malformed JSON ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`, text, contentType, marker }));
  }
  // An empty body is no body: refused only where the spec says the body is required (OpenAPI's default is optional).
  if (body.required) for (const text of json ? ['', ' ', '\n'] : ['']) cases.push(() => ({ kind: `empty body ${JSON.stringify(text)}`, text, contentType: encodeBody(op, {}).contentType, marker: undefined }));
  return cases;
}
