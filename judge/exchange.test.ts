import { beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { judgeExchange } from './exchange.js';
import type { ObservedExchange } from './verdict.js';

/**
 * The judge of one exchange, rule by rule: a correct exchange breaks none, and each exchange with one fault
 * breaks exactly the rule that names it (so that no rule can pass whatever the server does).
 */

let model: ApiModel;
beforeAll(async () => {
  model = await loadModel();
});

const AUTH = { authorization: 'Bearer k' };
const JSON_TYPE = { 'content-type': 'application/json' };
const pet = (id: number, status = 'available'): string => `{"id":${id},"name":"Rex","categoryId":1,"status":"${status}"}`;

function exchange(method: string, path: string, status: number, text: string, options: { headers?: Record<string, string>; body?: string; responseHeaders?: Record<string, string> } = {}): ObservedExchange {
  return {
    request: { method, path, headers: options.headers ?? { ...AUTH, ...(options.body === undefined ? {} : JSON_TYPE) }, ...(options.body === undefined ? {} : { body: options.body }) },
    response: { status, headers: options.responseHeaders ?? JSON_TYPE, text },
  };
}

const rules = (observed: ObservedExchange, strict = false): string[] => judgeExchange(model, observed, { strict }).violations.map((v) => v.rule);

describe('judgeExchange', () => {
  it('finds nothing in correct exchanges', () => {
    expect(rules(exchange('GET', '/pets?limit=2&status=sold', 200, `[${pet(1, 'sold')},${pet(2, 'sold')}]`))).toEqual([]);
    expect(rules(exchange('POST', '/pets', 201, pet(9), { body: '{"name":"Rex","categoryId":1,"status":"available"}' }))).toEqual([]);
    expect(rules(exchange('GET', '/pets/9', 200, pet(9)))).toEqual([]);
    expect(rules(exchange('GET', '/pets/9', 404, '{"code":"X","message":"no","status":404}'))).toEqual([]);
    expect(rules(exchange('GET', '/pets/9', 429, 'slow down', { responseHeaders: { 'content-type': 'text/plain', 'retry-after': '1' } }))).toEqual([]);
    expect(rules(exchange('POST', '/pets', 201, '{"id":1,"name":"A","categoryId":9223372036854775807}', { body: '{"name":"A","categoryId":9223372036854775807}' }))).toEqual([]);
  });

  it('names each broken rule', () => {
    expect(rules(exchange('GET', '/orders', 200, '[]'))).toEqual(['route']);
    expect(rules(exchange('DELETE', '/pets/1', 204, ''))).toEqual(['method']);
    expect(rules(exchange('GET', '/pets?limit=0', 400, '{"code":"X","message":"m","status":400}'))).toEqual(['request.parameter']);
    expect(rules(exchange('GET', '/pets/1', 418, '{"code":"X","message":"m","status":418}'))).toEqual(['status']);
    expect(rules(exchange('GET', '/pets', 200, '[]', { headers: {} }))).toEqual(['request.credentials', 'auth.accepted']);
    expect(rules(exchange('POST', '/pets', 201, pet(3), { body: '{"categoryId":1}' }))).toEqual(['request.body', 'body.accepted']);
    expect(rules(exchange('GET', '/pets', 500, 'oops', { responseHeaders: { 'content-type': 'text/plain' } }))).toEqual(['status', 'media-type']);
    expect(rules(exchange('GET', '/pets', 200, '[{"id":1'))).toEqual(['body.json']);
    expect(rules(exchange('GET', '/pets', 200, '[{"id":1,"name":7,"categoryId":1}]'))).toEqual(['body.schema']);
    expect(rules(exchange('GET', '/pets/1', 401, '{"code":"U","message":"m","status":400}'))).toEqual(['error.status']);
    expect(rules(exchange('GET', '/pets?status=sold', 200, `[${pet(1, 'available')}]`))).toEqual(['list.filter']);
    expect(rules(exchange('GET', '/pets?limit=1', 200, `[${pet(1)},${pet(2)}]`))).toEqual(['list.limit']);
    const many = Array.from({ length: 21 }, (_, i) => pet(i + 1)).join(',');
    expect(rules(exchange('GET', '/pets', 200, `[${many}]`))).toEqual(['list.default-limit']);
    expect(rules(exchange('POST', '/pets', 201, '{"id":1,"name":"A","categoryId":9007199254740992}', { body: '{"name":"A","categoryId":9007199254740993}' }))).toEqual(['create.echo']);
    expect(rules(exchange('GET', '/pets/2', 200, pet(3)))).toEqual(['read.id']);
    expect(rules(exchange('GET', '/pets?limit=500', 200, '[]'))).toEqual(['request.parameter']);
    expect(rules(exchange('GET', '/pets?limit=500', 200, '[]'), true)).toEqual(['request.parameter', 'status']);
  });

  it('gives each violation an operation, a JSON pointer, what was expected and what came', () => {
    const [violation] = judgeExchange(model, exchange('POST', '/pets', 201, '{"id":1,"name":"B","categoryId":1}', { body: '{"name":"A","categoryId":1}' })).violations;
    expect(violation).toMatchObject({ operationId: 'createPet', rule: 'create.echo', side: 'response', pointer: '/body/name', expected: '"A"', got: '"B"' });
  });
});
