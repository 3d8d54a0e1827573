import { describe, expect, it } from 'vitest';
import { farmPageCount, farmPageOf, lastMonth } from './farms';

describe('farm cards paging (operator §9: 30 a page)', () => {
  it('pages by 30 and clamps to the last page', () => {
    const items = Array.from({ length: 61 }, (_, i) => i);
    expect(farmPageCount(61)).toBe(3);
    expect(farmPageCount(0)).toBe(1);
    expect(farmPageOf(items, 1)).toHaveLength(30);
    expect(farmPageOf(items, 3)).toEqual([60]);
    expect(farmPageOf(items, 7)).toEqual([60]);
  });

  it('offers last month for billing, across a year end', () => {
    expect(lastMonth(new Date('2026-01-15T00:00:00Z'))).toBe('2025-12');
    expect(lastMonth(new Date('2026-11-25T00:00:00Z'))).toBe('2026-10');
  });
});
