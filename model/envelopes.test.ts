import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from './loader.js';
import { envelopeMember, recordIn } from './resources.js';
import type { Schema } from './schema.js';

// Single-record envelopes (spec/DECISIONS.md › D73): which member of an answer or body holds the record.

const droplet: Schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, region: { type: 'string' } } };
const links: Schema = { type: 'object', properties: { self: { type: 'string' } } };

describe('envelopeMember', () => {
  test('the member holding the list’s record, beside links and meta, is the envelope', () => {
    expect(envelopeMember({ type: 'object', properties: { droplet, links, meta: { type: 'object', properties: { total: { type: 'integer' } } } } }, droplet, [])).toBe('droplet');
  });
  test('without a list, the member named like the resource, or by a usual name, or the only member', () => {
    expect(envelopeMember({ type: 'object', properties: { droplet, links } }, undefined, ['droplet', 'droplets'])).toBe('droplet');
    expect(envelopeMember({ type: 'object', properties: { data: droplet, jsonapi: links } }, undefined, [])).toBe('data');
    expect(envelopeMember({ type: 'object', properties: { machine: droplet } }, undefined, [])).toBe('machine');
  });
  test('a record with its own fields beside an object member is not an envelope', () => {
    const pet: Schema = { type: 'object', properties: { id: { type: 'integer' }, owner: droplet } };
    expect(envelopeMember(pet, undefined, ['owner'])).toBeUndefined();
    expect(envelopeMember({ type: 'object', properties: { id: { type: 'integer' }, parent: droplet } }, droplet, [])).toBeUndefined();
    expect(envelopeMember(droplet, droplet, ['droplet'])).toBeUndefined();
  });
  test('a oneOf answer wraps the record in the branch that holds it', () => {
    const answer: Schema = { oneOf: [{ type: 'object', required: ['droplet', 'links'], properties: { droplet, links } }, { type: 'object', properties: { droplets: { type: 'array', items: droplet }, links } }] };
    expect(envelopeMember(answer, droplet, ['droplet'])).toBe('droplet');
  });
  test('recordIn reads the member, or the value itself without an envelope', () => {
    expect(recordIn({ droplet: { id: 1 } }, 'droplet')).toEqual({ id: 1 });
    expect(recordIn({ id: 1 }, undefined)).toEqual({ id: 1 });
    expect(recordIn([1], 'droplet')).toBeUndefined();
  });
});

describe('the model of enveloped specs', () => {
  test('DigitalOcean’s shape: answers wrapped in `droplet`, a flat create body, the record read inside', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'droplets-envelope-3.0.yaml'));
    const [droplets] = model.resources;
    expect([droplets!.name, droplets!.idProperty, droplets!.idSource]).toEqual(['droplets', 'id', 'server']);
    const ops = droplets!.operations;
    expect([ops.create!.answerEnvelope, ops.read!.answerEnvelope, ops.update!.answerEnvelope, ops.create!.bodyEnvelope]).toEqual(['droplet', 'droplet', 'droplet', undefined]);
  });
  test('JSON:API: `data` wraps answers and write bodies alike', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'articles-jsonapi-3.1.yaml'));
    const [articles] = model.resources;
    expect([articles!.idProperty, articles!.idType]).toEqual(['id', 'string']);
    const ops = articles!.operations;
    expect([ops.create!.answerEnvelope, ops.create!.bodyEnvelope, ops.update!.bodyEnvelope, ops.read!.answerEnvelope]).toEqual(['data', 'data', 'data', 'data']);
  });
  test('the seed has no envelope anywhere', async () => {
    const model = await loadModel();
    expect(model.operations.filter((op) => op.answerEnvelope !== undefined || op.bodyEnvelope !== undefined)).toEqual([]);
  });
});
