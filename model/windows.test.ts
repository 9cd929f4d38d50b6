import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from './loader.js';
import type { OperationModel } from './model.js';
import { compareDecimal, exactDecimal, numericBoundName, numericRangesOf, reversedRangeIn } from './windows.js';

// Numeric range filters read from a spec (spec/DECISIONS.md › D105, D107): names, descriptions, members, no guess.

/** The list operation of a one-path spec whose records hold `price`, `weight` and `serial`, with these parameters. */
async function listWith(parameters: unknown[], description?: string): Promise<OperationModel> {
  const record = { type: 'object', properties: { id: { type: 'integer' }, price: { type: 'number' }, weight: { type: 'integer' }, serial: { type: 'integer', format: 'int64' }, name: { type: 'string' } } };
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/things': { get: { operationId: 'listThings', ...(description === undefined ? {} : { description }), parameters, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: record } } } } } } } },
  };
  const dir = mkdtempSync(join(tmpdir(), 'windows-'));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(document));
  const model = await loadModel(join(dir, 'spec.json'));
  rmSync(dir, { recursive: true, force: true });
  return model.operations[0]!;
}
const number = (name: string, description?: string) => ({ name, in: 'query', schema: { type: 'number' }, ...(description === undefined ? {} : { description }) });

describe('numeric bound names', () => {
  test.each([
    ['price_gte', 'price', 'lower', false],
    ['price[lt]', 'price', 'upper', true],
    ['price.min', 'price', 'lower', undefined],
    ['minPrice', 'Price', 'lower', undefined],
    ['max_price', 'price', 'upper', undefined],
    ['priceTo', 'price', 'upper', undefined],
    ['from', '', 'lower', undefined],
  ])('%s bounds %s', (name, stem, bound, exclusive) => {
    expect(numericBoundName(name)).toEqual({ stem, operator: { bound, exclusive } });
  });
  test('names that bound nothing', () => {
    for (const name of ['total', 'mint', 'maximal', 'limit', 'price', 'tomato', 'minute', 'tolerance']) expect(numericBoundName(name)).toBeUndefined();
  });
});

describe('numeric ranges of a list', () => {
  test('pairs matched by stem; exclusive by operator or description; reversed refused when a sentence compares both', async () => {
    const op = await listWith([number('minPrice', 'Lowest price. minPrice must not exceed maxPrice.'), number('maxPrice'), number('weight_gt'), number('weight[lte]'), number('serial_min', 'Serials greater than this.')]);
    const ranges = numericRangesOf(op).ranges.map((range) => [range.property, range.lower?.parameter.name, range.lower?.exclusive, range.upper?.parameter.name, range.upper?.exclusive, range.reversedRefused]);
    expect(ranges).toEqual([
      ['price', 'minPrice', false, 'maxPrice', false, true],
      ['weight', 'weight_gt', true, 'weight[lte]', false, false],
      ['serial', 'serial_min', true, undefined, undefined, false],
    ]);
    expect(reversedRangeIn(op, { minPrice: 5, maxPrice: 4 })).toMatch(/minPrice \(5\) must not be greater than maxPrice \(4\)/);
    expect(reversedRangeIn(op, { minPrice: 4, maxPrice: 4 })).toBeUndefined();
  });
  test('a bare from/to takes the one member its description names; several named is ambiguous, no range', async () => {
    const one = await listWith([number('from', 'Only things whose weight is at least this.'), number('to', 'Only things whose weight is at most this.')]);
    expect(numericRangesOf(one).ranges.map((range) => range.property)).toEqual(['weight']);
    const two = await listWith([number('from', 'The lowest price or weight.')]);
    expect(numericRangesOf(two)).toEqual({ ranges: [], ambiguous: [{ parameter: 'from', members: ['price', 'weight'] }] });
  });
  test('the marketplace spec: three ranges on its listings, one on its served shipping profiles', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'marketplace-3.1.yaml'));
    const of = (id: string) => numericRangesOf(model.operations.find((op) => op.operationId === id)!).ranges.map((range) => range.property);
    expect(of('get-listings')).toEqual(['price', 'weight_grams', 'serial_number']);
    expect(of('get-shipping-profiles')).toEqual(['cost']);
  });
});

describe('exact decimals', () => {
  test('int64 beyond 2^53 and decimals compare exactly', () => {
    const at = (text: string) => exactDecimal(text)!;
    expect(compareDecimal(at('9007199254740993'), at('9007199254740992'))).toBe(1);
    expect(compareDecimal(at('0.1'), at('1e-1'))).toBe(0);
    expect(compareDecimal(at('-2.5'), at('-2.49'))).toBe(-1);
    expect(exactDecimal('1e999999')).toBeUndefined();
    expect(exactDecimal('abc')).toBeUndefined();
  });
});
