import { describe, expect, test } from 'vitest';
import type { OperationModel } from '../model/model.js';
import { withNarrowings, type Narrowings } from './arbitraries/narrowed.js';
import { listedClientErrors, namedMembers, updatedIdMember } from './refusals.js';

/** An operation with just what the refusal rules read: its text, statuses and body schema. */
function operation(description: string, statuses: string[], properties: Record<string, object> = {}): OperationModel {
  return { operationId: 'save', description, responses: statuses.map((status) => ({ status })), body: { schema: { type: 'object', properties }, validate: () => true } } as unknown as OperationModel;
}

describe('documented refusals of drawn values (D490-D492)', () => {
  test('the member a refusal names: its name, or every word of it, in any text of the answer', () => {
    const payment = { amount: 10, source: { object: 'bank_account', sort_code: 'a', bank_name: 'x' } };
    expect(namedMembers('{"title":"Bad Request","detail":"sort_code must be a six-digit number"}', payment)).toEqual([['source', 'sort_code']]);
    expect(namedMembers('{"message":"the sort code is not valid"}', payment)).toEqual([['source', 'sort_code']]);
    expect(namedMembers('{"code":"BAD","message":"start time must be before end time"}', { startsAt: 'x', endsAt: 'y', comment: 'c' })).toEqual([['startsAt'], ['endsAt']]);
    expect(namedMembers('{"message":"Validation Failed","errors":[{"field":"body","message":"Body cannot be blank"}]}', { body: '' })).toEqual([['body']]);
    expect(namedMembers('{"message":"quota exceeded"}', { name: 'n', size: 3 })).toEqual([]);
  });

  test('an operation that creates or updates, and the id its body names', () => {
    const upsert = operation('Post a new silence or update an existing one', ['200', '400', '404'], { id: { type: 'string' }, comment: { type: 'string' } });
    expect(updatedIdMember(upsert, { id: 'x', comment: 'c' })).toBe('id');
    expect(updatedIdMember(upsert, { comment: 'c' })).toBeUndefined();
    expect(updatedIdMember(operation('Create a silence', ['200'], { id: { type: 'string' } }), { id: 'x' })).toBeUndefined();
  });

  test('the client errors an operation lists itself: exact statuses and 4XX, not default', () => {
    expect(listedClientErrors(operation('', ['200', '400', '422', '500']))).toEqual([400, 422]);
    expect(listedClientErrors(operation('', ['200', 'DEFAULT']))).toEqual([]);
    expect(listedClientErrors(operation('', ['4XX'])).length).toBe(100);
  });

  test('a narrowing draws the named member as the example: every value, only an empty one, or leaves it out', () => {
    const op = operation('', ['200']);
    const narrowings: Narrowings = new Map([[op, new Map([
      ['source/sort_code', { path: ['source', 'sort_code'], value: '000123', replaces: 'always' as const }],
      ['body', { path: ['body'], value: 'Me too', replaces: 'empty' as const }],
      ['id', { path: ['id'], value: undefined, replaces: 'absent' as const }],
    ])]]);
    expect(withNarrowings(narrowings, op, { id: 'x', body: '', source: { sort_code: 'a', bank_name: 'b' } })).toEqual({ body: 'Me too', source: { sort_code: '000123', bank_name: 'b' } });
    expect(withNarrowings(narrowings, op, { body: 'kept', source: { number: '1' } })).toEqual({ body: 'kept', source: { number: '1' } });
  });
});
