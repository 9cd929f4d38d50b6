import { describe, expect, it } from 'vitest';
import { validAnswer, validatorOf } from './samples.js';
import { objectShape, type Schema } from './schema.js';

/**
 * Boolean schemas (`true`: anything, `false`: nothing) reach the model where a member's schema goes: JSON Schema
 * allows them, and a request view forbids a `readOnly` member with `false`. The samples' validator cache is keyed by
 * schema objects, so a boolean one threw "Invalid value used as weak map key" and one directory description
 * (a record keyed by a `readOnly` id, read through its create) could not start (spec/DECISIONS.md › D783).
 */
describe('boolean schemas', () => {
  it('compile to validators that accept anything (true) and nothing (false)', () => {
    const anything = validatorOf(true as unknown as Schema);
    const nothing = validatorOf(false as unknown as Schema);
    expect([anything?.('x'), anything?.(1), anything?.(null)]).toEqual([true, true, true]);
    expect([nothing?.('x'), nothing?.(1), nothing?.(null)]).toEqual([false, false, false]);
  });

  it('name no member where an object is seen as one, beside the parts that do', () => {
    const member = { allOf: [{ type: 'object', properties: { id: { type: 'string' } } }, false] } as unknown as Schema;
    expect(objectShape(member).properties).toEqual({ id: { type: 'string' } });
    expect(objectShape(false as unknown as Schema)).toEqual({ properties: {}, required: [], additional: {} });
  });

  it('give a sample without throwing', () => {
    expect(() => validAnswer(false as unknown as Schema)).not.toThrow();
    expect(validAnswer(false as unknown as Schema).valid).toBe(false);
  });
});
