import fc from 'fast-check';
import type { ResourceModel } from '../../spec/model.js';
import { bodyForm, bodyValues, ordinaryBody, sampleFor, withProperty } from '../arbitraries/body.js';
import type { Canonical } from '../arbitraries/canonical.js';
import { integerBounds, integerIn, edgesWithin } from '../arbitraries/integers.js';
import { invalidBodies, markerProperties, markerValue, missingRequiredBodies, type InvalidBody, type Marker } from '../arbitraries/invalid-body.js';
import { CORNER_STRINGS, holdsUnusualString, unconstrainedStringProperties } from '../arbitraries/schema.js';
import { requestOf, type CheckContext } from '../context.js';
import type { Check } from './check.js';
import { expectNothingCreated } from './population.js';
import { createRecord, operation } from './records.js';

/** A run number that keeps markers of this process apart from those of earlier runs on the same target. */
const RUN = Date.now() % 1_000_000;

/**
 * Markers for a create body: `mark(first)` is a marking function whose every call puts a new value (numbered from
 * `first`) on the best property not in `avoid`, so each case of one family carries its own marker.
 */
function markers(form: Canonical): (first: number) => (avoid: readonly string[]) => Marker | undefined {
  const candidates = markerProperties(form);
  return (first) => {
    let index = first;
    return (avoid) => {
      const property = candidates.find((name) => !avoid.includes(name));
      return property === undefined ? undefined : { property, value: markerValue(form, property, RUN, index++) };
    };
  };
}

/** The bases of the fixed cases: only the required properties, then each value of each optional enum property. */
function fixedBases(context: CheckContext, resource: ResourceModel): Record<string, unknown>[] {
  const op = operation(resource, 'create');
  const form = bodyForm(op);
  const base = ordinaryBody(op, context.target.integers, 1, true);
  const bases = [base];
  if (form.kind === 'object') {
    for (const [name, sub] of Object.entries(form.properties)) {
      if (form.required.includes(name) || sub.kind !== 'enum') continue;
      for (const value of sub.values) {
        const changed = withProperty(op, base, name, value);
        if (changed !== undefined) bases.push(changed);
      }
    }
  }
  return bases;
}

/** Sends a body that must be refused with 400 and makes sure it created nothing (seed, Errors). */
async function expectRefused(context: CheckContext, resource: ResourceModel, body: InvalidBody): Promise<void> {
  const op = operation(resource, 'create');
  const { exchange } = await context.call(op, requestOf(op, { body: body.text }), [400]);
  await expectNothingCreated(context, resource, body.marker, exchange);
}

/**
 * One refused body of a family built from a valid create body: `family(base, n)` lists the cases of a drawn base,
 * with markers numbered by `n` (below 10,000, so that the runs of one check never share a marker); `undefined`
 * when a base gives no case.
 */
function drawnCases(context: CheckContext, resource: ResourceModel, family: (base: Record<string, unknown>, n: number) => InvalidBody[]): fc.Arbitrary<InvalidBody | undefined> {
  const values = bodyValues(operation(resource, 'create'), { integers: context.target.integers, strings: 'ordinary' });
  return fc.tuple(values, fc.nat()).chain(([base, n]) => {
    const cases = family(base, n % 10_000);
    return cases.length === 0 ? fc.constant(undefined) : fc.constantFrom(...cases);
  });
}

/** Create rule 1 (seed, Endpoints §2): without a required property, a 400 in the error shape, and nothing created. */
export function requiredFieldsCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op);
      const mark = markers(form);
      const fixed = mark(0);
      for (const base of fixedBases(context, resource)) {
        for (const body of missingRequiredBodies(form, base, fixed)) await expectRefused(context, resource, body);
      }
      const random = drawnCases(context, resource, (base, n) => missingRequiredBodies(form, base, mark(10_000 + n * 100)));
      await context.forAll(random, async (body) => (body === undefined ? undefined : expectRefused(context, resource, body)), { runs: Math.min(context.target.runs, 30) });
    },
  };
}

/**
 * Create, Errors (seed): invalid values (every kind derived from the body's schema), non-objects, malformed JSON
 * and empty bodies are a 400 in the error shape; nothing is created.
 */
export function invalidBodyCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op);
      const mark = markers(form);
      const forbidden = (name: string): unknown => sampleFor(resource.properties[name]);
      const base = ordinaryBody(op, context.target.integers, 2);
      for (const body of invalidBodies(op.body!, form, base, mark(1000), forbidden)) await expectRefused(context, resource, body);
      const random = drawnCases(context, resource, (value, n) => invalidBodies(op.body!, form, value, mark(2_000_000 + n * 1000), forbidden));
      await context.forAll(random, async (body) => (body === undefined ? undefined : expectRefused(context, resource, body)));
    },
  };
}

/**
 * Create rule 2 (seed, Endpoints §2), positive data: every valid body is a success that repeats the submitted
 * fields exactly and carries a new id. Ordinary strings must be accepted; in an unconstrained string, the corner
 * strings and unusual ones may be refused with 400 (DECISIONS D2) unless `--strict`.
 */
export function echoCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op);
      const base = ordinaryBody(op, context.target.integers, 3);
      for (const property of unconstrainedStringProperties(form)) {
        for (const corner of CORNER_STRINGS) {
          const value = withProperty(op, base, property, corner);
          if (value !== undefined) await createRecord(context, resource, value, true);
        }
      }
      await context.forAll(bodyValues(op, { integers: context.target.integers, strings: 'any' }), async (value) => {
        await createRecord(context, resource, value, holdsUnusualString(form, value));
      });
    },
  };
}

/** The top-level int64 properties of a create body (on the seed's spec, NewPet's category). */
export function int64Properties(form: Canonical): string[] {
  return form.kind === 'object' ? Object.entries(form.properties).filter(([, sub]) => sub.kind === 'integer' && sub.int64).map(([name]) => name) : [];
}

/**
 * int64 (seed, Resources › NewPet, Pet): every int64 value of the create body's int64 properties, the edges
 * first, comes back digit for digit; the id's int64 format is checked by the contract on every response.
 */
export function int64Check(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op) as Extract<Canonical, { kind: 'object' }>;
      const properties = int64Properties(form);
      const bounds = (name: string): [bigint, bigint] => {
        const sub = form.properties[name] as Extract<Canonical, { kind: 'integer' }>;
        return integerBounds(sub.min, sub.max, context.target.integers, true);
      };
      const base = ordinaryBody(op, context.target.integers, 4, true);
      for (const name of properties) {
        for (const edge of edgesWithin(...bounds(name))) {
          const value = withProperty(op, base, name, edge);
          if (value !== undefined) await createRecord(context, resource, value);
        }
      }
      const values = fc.tuple(bodyValues(op, { integers: context.target.integers, strings: 'ordinary' }), fc.record(Object.fromEntries(properties.map((name) => [name, integerIn(...bounds(name))]))));
      await context.forAll(values.map(([value, integers]) => ({ ...value, ...integers })), async (value) => void (await createRecord(context, resource, value)), { runs: Math.min(context.target.runs, 30) });
    },
  };
}
