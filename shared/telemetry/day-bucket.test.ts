import { describe, expect, it } from 'vitest';
import { decodeDay, encodeDay, fromDayColumns, toDayColumns, type StoredDay } from './day-bucket';
import { trace } from './testing/trace';

const day = trace();
const stored = (x: unknown) => JSON.parse(JSON.stringify(x)) as StoredDay;

describe('day buckets as stored', () => {
  it('version 2 keeps repeating columns as runs and gives back the same readings', () => {
    const v2 = stored(encodeDay(day));
    expect(v2.v).toBe(2);
    expect(Object.values(v2.cols).some((c) => c !== undefined && !Array.isArray(c))).toBe(true);
    expect(decodeDay(v2)).toEqual(stored(toDayColumns(day)));
    expect(fromDayColumns(decodeDay(v2))).toEqual(day);
  });

  it('a column that changes often stays an array; a version 1 bucket reads as before', () => {
    const wavy = day.map((r, i) => ({ ...r, temp1: i % 2 === 0 ? 4 : 5, state_machine: 'storage' as const }));
    const v2 = stored(encodeDay(wavy));
    expect(Array.isArray(v2.cols.temp1)).toBe(true);
    expect(v2.cols.state_machine).toEqual({ runs: [['storage', wavy.length]] });
    expect(fromDayColumns(decodeDay(v2))).toEqual(wavy);
    expect(fromDayColumns(decodeDay(stored(toDayColumns(day))))).toEqual(day);
  });
});
