import { describe, expect, it } from 'vitest';
import { validAnswer } from './samples.js';
import type { Schema } from './schema.js';

/**
 * spec/DECISIONS.md › D894: a list whose item schema admits no value (an object `type` beside an `enum` of texts, as
 * a description from the wild writes its product groups) is sampled empty where its schema allows, so the answer that
 * holds it is valid; a list that must hold items, or whose items can be made, is sampled as before.
 */
describe('samples of lists whose items no value satisfies', () => {
  const group: Schema = { type: 'object', enum: ['CAR', 'VAN'], required: ['name'], properties: { name: { type: 'string' } } };

  it('samples such a list empty, and the answer holding it is valid', () => {
    const answer = validAnswer({ type: 'object', required: ['market', 'groups'], properties: { market: { type: 'string' }, groups: { type: 'array', items: group } } });
    expect(answer.valid).toBe(true);
    expect(answer.value).toMatchObject({ groups: [] });
  });

  it('still shows an item where one can be made, and cannot make a list that must hold such items', () => {
    expect(validAnswer({ type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string', enum: ['CAR'] } } } }).value).toEqual([{ name: 'CAR' }]);
    expect(validAnswer({ type: 'array', minItems: 1, items: group }).valid).toBe(false);
  });
});
