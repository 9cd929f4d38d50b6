import { describe, expect, test } from 'vitest';
import { boundarySizes } from './checks/pages.js';

describe('page sizes at which the last page is a boundary (D170)', () => {
  test('12 records from 1 to 20: the smallest size, an exact divisor, a last page of one, all on the first page', () => {
    expect(boundarySizes(12, 1, 20)).toEqual([1, 2, 11, 12]);
  });

  test('from a larger smallest size: the divisor and the single-record remainder are found above it', () => {
    // 30 records, sizes 4..10: 5 divides 30, and no size in range leaves one record on the last page.
    expect(boundarySizes(30, 4, 10)).toEqual([4, 5]);
    // 26 records, sizes 3..10: no size divides 26, and 5 leaves one record on the last page (26 = 5 x 5 + 1).
    expect(boundarySizes(26, 3, 10)).toEqual([3, 5]);
  });

  test('sizes never leave the allowed range, and a list of one record or none asks the smallest size', () => {
    expect(boundarySizes(1, 1, 100)).toEqual([1]);
    expect(boundarySizes(0, 1, 100)).toEqual([1]);
    expect(boundarySizes(500, 10, 50).every((size) => size >= 10 && size <= 50)).toBe(true);
  });
});
