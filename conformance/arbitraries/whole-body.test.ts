import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { loadModel } from '../../model/loader.js';
import type * as SchemaModule from '../../model/schema.js';
import type { Validator } from '../../model/schema.js';
import { ordinaryBody, type PinsHolder } from './body.js';
import { canonicalise } from './canonical.js';
import { drawsValue } from './schema-values.js';

/** Candidates judged against a whole body's schema (D181), by operation: the work a whole-body draw does. */
const judged = vi.hoisted(() => new Map<string, number>());

// The whole body's validator is compiled under `<operationId>-whole`; counting its calls counts the candidates the
// draw tried before it kept one or gave up.
vi.mock('../../model/schema.js', async (importOriginal) => {
  const original = await importOriginal<typeof SchemaModule>();
  return {
    ...original,
    compile: (...args: Parameters<typeof original.compile>): Validator => {
      const validate = original.compile(...args);
      const prefix = args[2] ?? '';
      if (!prefix.endsWith('-whole')) return validate;
      const counted = (value: unknown): boolean => (judged.set(prefix, (judged.get(prefix) ?? 0) + 1), validate(value));
      return Object.assign(counted, { errors: validate.errors, issues: validate.issues, failure: validate.failure });
    },
  };
});

/**
 * Two creates that require nothing (D181). A card's record requires `brand` inside `details`, a member the write
 * does not name (the server fills it): no whole card body is valid within the record (D883). A tag's record requires
 * nothing the write cannot send.
 */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Wallet', version: '1' },
  paths: {
    '/cards': {
      post: {
        operationId: 'createCard',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string', maxLength: 20 }, details: { type: 'object', properties: { number: { type: 'string', pattern: '^[0-9]{4}$' } } } } } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } } },
      },
    },
    '/cards/{cardId}': {
      get: {
        operationId: 'getCard',
        parameters: [{ name: 'cardId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'the card', content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } } },
      },
    },
    '/tags': {
      post: {
        operationId: 'createTag',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', maxLength: 20 }, style: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } } } } } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } } },
      },
    },
    '/tags/{tagId}': {
      get: {
        operationId: 'getTag',
        parameters: [{ name: 'tagId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'the tag', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Card: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', readOnly: true },
          label: { type: 'string', maxLength: 20 },
          details: { type: 'object', required: ['number', 'brand'], properties: { number: { type: 'string', pattern: '^[0-9]{4}$', minLength: 4 }, brand: { type: 'string' } } },
        },
      },
      Tag: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', maxLength: 20 },
          style: { type: 'object', required: ['colour'], properties: { colour: { type: 'string', enum: ['red', 'blue', 'green'] } } },
        },
      },
    },
  },
};

describe('a whole body its schema shows no draw can meet gives way at once to the body as required (D913)', () => {
  test('no candidate is judged against an impossible whole body; a possible one is still drawn whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'whole-body-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    const model = await loadModel(join(dir, 'openapi.json'));
    const op = (id: string) => model.operations.find((candidate) => candidate.operationId === id)!;
    const context: PinsHolder = { run: { pins: new Map() } };
    for (let seed = 1; seed <= 5; seed++) {
      const card = ordinaryBody(context, op('createCard'), 'safe', seed);
      // The body as required: any of the members, never a `details` the record would refuse.
      expect(card['details']).toBeUndefined();
      const tag = ordinaryBody(context, op('createTag'), 'safe', seed);
      expect(Object.keys(tag).sort()).toEqual(['name', 'style']);
    }
    expect(judged.get('createCard-whole') ?? 0).toBe(0);
    expect(judged.get('createTag-whole')).toBeGreaterThanOrEqual(5);
  });

  test('an object that requires a member it describes nowhere draws no value, nor a union of only such objects', () => {
    const undescribed = { type: 'object', required: ['brand'], properties: { number: { type: 'string' } } };
    expect(drawsValue(canonicalise(undescribed))).toBe(false);
    expect(drawsValue(canonicalise({ anyOf: [undescribed, { ...undescribed, properties: { token: { type: 'string' } } }] }))).toBe(false);
    expect(drawsValue(canonicalise({ type: 'object', properties: { card: undescribed } }))).toBe(true);
    expect(drawsValue(canonicalise({ type: 'object', required: ['card'], properties: { card: undescribed } }))).toBe(false);
    expect(drawsValue(canonicalise({ ...undescribed, type: ['object', 'null'] }))).toBe(true);
    expect(drawsValue(canonicalise({ type: 'object', required: ['brand'], properties: { brand: { type: 'string' } } }))).toBe(true);
  });
});
