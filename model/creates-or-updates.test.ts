import { describe, expect, test } from 'vitest';
import type { OperationModel } from './model.js';
import { saysCreatesOrUpdates } from './resources.js';

/** Only the text matters to this reading (D432); the rest of the operation is left out. */
const operation = (description: string): OperationModel => ({ description }) as OperationModel;

describe('an operation that says it creates or updates (D432)', () => {
  test.each([
    'Post a new silence or update an existing one',
    'Inserts or updates a filter. If a filter with same name as supplied filter exists this filter is updated, otherwise a new filter is inserted.',
    'Create or update a flow',
    'Performs a create-or-update of the record',
    'Upserts a contact',
    'Adds a tag or replaces the one of the same name',
  ])('is read as such: %s', (text) => {
    expect(saysCreatesOrUpdates(operation(text))).toBe(true);
  });

  test.each([
    'Create a pet',
    'Creates a pet. To change it later, update it with PUT.',
    'Update an existing pet',
    'Adds a new item to the cart',
  ])('is not read so when the text only creates or only updates: %s', (text) => {
    expect(saysCreatesOrUpdates(operation(text))).toBe(false);
  });
});
