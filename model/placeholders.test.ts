import { describe, expect, it } from 'vitest';
import { validAnswer, validSample } from './samples.js';
import type { Schema } from './schema.js';

/**
 * spec/DECISIONS.md › D391: a sample never shows openapi-sampler's made-up map entries (`property1`, `property2`):
 * an open map is sampled empty, at any depth and through `allOf`/`oneOf`, a member the schema names `property1` is
 * kept, and a map that must hold entries gets them from the schema's own generator.
 */
describe('samples of maps', () => {
  const labels: Schema = { type: 'object', additionalProperties: { type: 'string' } };

  it('samples an open map with no entry, at the top and nested in members, items and parts', () => {
    expect(validSample(labels)).toEqual({});
    const alert: Schema = { type: 'object', required: ['labels'], properties: { labels: labels, notes: { type: 'array', items: { allOf: [{ type: 'object', properties: { text: { type: 'string' } } }, { additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } } }] } } } };
    const sample = validSample(alert);
    expect(JSON.stringify(sample)).not.toMatch(/property[12]/);
    expect(sample).toMatchObject({ labels: {} });
    expect(JSON.stringify(validSample({ oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, additionalProperties: { type: 'string' } }] }))).not.toMatch(/property[12]/);
  });

  it('samples an open map with no entry where one part of an allOf names its member bare and another with the map', () => {
    // A page wrapper `{items: [{}]}` with the record's own `items` beside it in a second part (a list answer that
    // extends a generic page), the map inside the record.
    const page: Schema = { allOf: [{ type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: {} } } } }, { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { attributes: labels, note: { type: 'string' } } } } } }] };
    const sample = validSample(page) as { items: Record<string, unknown>[] };
    expect(JSON.stringify(sample)).not.toMatch(/property[12]/);
    expect(sample.items[0]).toMatchObject({ attributes: {} });
  });

  it('keeps a member the schema names property1, and the description\'s own example', () => {
    expect(validSample({ type: 'object', properties: { property1: { type: 'string', example: 'kept' }, property2: { type: 'integer', example: 2 } } })).toEqual({ property1: 'kept', property2: 2 });
    expect(validAnswer(labels, undefined, [{ property1: 'written by the author' }]).value).toEqual({ property1: 'written by the author' });
  });

  it('fills a map that must hold entries from the schema, not with the placeholders', () => {
    const answer = validAnswer({ type: 'object', minProperties: 1, additionalProperties: { type: 'string' } });
    expect(answer.valid).toBe(true);
    expect(Object.keys(answer.value as object)).toHaveLength(1);
    expect(JSON.stringify(answer.value)).not.toMatch(/property[12]/);
  });
});
