import { describe, expect, it } from 'vitest';
import { parseForm } from './forms.js';
import { canonicalJson } from '../model/json.js';

/**
 * Form bodies in bracket notation (OpenAPI's `deepObject` style, what Stripe's client sends at its defaults):
 * nested members and array elements are read into the value a JSON body would be (spec/DECISIONS.md › D228).
 */
const schema = {
  type: 'object',
  properties: {
    email: { type: 'string' },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    items: { type: 'array', items: { type: 'object', properties: { price: { type: 'string' }, quantity: { type: 'integer' } } } },
    expand: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', properties: { line1: { type: 'string' }, verified: { type: 'boolean' } } },
  },
};
const form = (text: string) => parseForm(Buffer.from(text), 'application/x-www-form-urlencoded', schema);
const json = (text: string) => {
  const parsed = form(text);
  return parsed.ok ? canonicalJson(parsed.value) : parsed.message;
};

describe('form bodies in bracket notation', () => {
  it('nested members, array elements by index and by [], each coerced by its own schema', () => {
    const text = 'email=a%40b.c&metadata[plan]=pro&metadata[seats]=3&items[0][price]=p_1&items[0][quantity]=2&items[1][price]=p_2&expand[]=customer&expand[]=invoice&address[line1]=1+Main&address[verified]=true';
    expect(JSON.parse(json(text))).toEqual({
      email: 'a@b.c',
      metadata: { plan: 'pro', seats: '3' },
      items: [{ price: 'p_1', quantity: 2 }, { price: 'p_2' }],
      expand: ['customer', 'invoice'],
      address: { line1: '1 Main', verified: true },
    });
  });

  it('array elements given by index in order', () => {
    expect(JSON.parse(json('expand[0]=a&expand[1]=b'))).toEqual({ expand: ['a', 'b'] });
  });

  it('an element out of order, or a huge index, is refused with the field named, never a sparse array', () => {
    expect(json('expand[5]=a')).toMatch(/"expand".*out of order/);
    expect(json('expand[99999999999]=a')).toMatch(/out of order/);
  });

  it('a member given both plain and with keys is refused, and __proto__ is an own member', () => {
    expect(json('address=x&address[line1]=y')).toMatch(/both as a value and with keys/);
    const parsed = form('metadata[__proto__]=x');
    expect(parsed.ok && Object.getPrototypeOf(parsed.value['metadata'])).toBe(Object.prototype);
    expect(parsed.ok && Object.hasOwn(parsed.value['metadata'] as object, '__proto__')).toBe(true);
  });
});

describe('form members of several shapes (D331)', () => {
  it('reads a scalar by the branch its text spells, and bracketed keys below an object-or-"" member by the object', () => {
    const several = {
      type: 'object',
      properties: {
        off_session: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['one_off', 'recurring'] }] },
        tiers: { type: 'array', items: { type: 'object', properties: { up_to: { anyOf: [{ type: 'string', enum: ['inf'] }, { type: 'integer' }] } } } },
        options: { anyOf: [{ type: 'object', properties: { card: { type: 'object', properties: { count: { type: 'integer' } } } } }, { type: 'string', enum: [''] }] },
      },
    };
    const parsed = parseForm(Buffer.from('off_session=true&tiers[0][up_to]=5&tiers[1][up_to]=inf&options[card][count]=3'), 'application/x-www-form-urlencoded', several);
    expect(parsed.ok && canonicalJson(parsed.value)).toBe(canonicalJson({ off_session: true, tiers: [{ up_to: 5 }, { up_to: 'inf' }], options: { card: { count: 3 } } }));
    const word = parseForm(Buffer.from('off_session=one_off&options='), 'application/x-www-form-urlencoded', several);
    expect(word.ok && canonicalJson(word.value)).toBe(canonicalJson({ off_session: 'one_off', options: '' }));
  });
});
