import { describe, expect, it } from 'vitest';
import { fromDayColumns, toDayColumns } from './day-bucket';
import { downsample, downsampleIndices } from './downsample';
import { columnsFromDay, columnsFromReadings, concatColumns, rowsOf, seriesSource, sliceColumns } from './reading-columns';
import { trace } from './testing/trace';

const day = trace();

describe('reading columns', () => {
  it('give back the readings of a day bucket, the same as fromDayColumns', () => {
    const stored = JSON.parse(JSON.stringify(toDayColumns(day))) as ReturnType<typeof toDayColumns>;
    expect(fromDayColumns(stored)).toEqual(day);
    expect(rowsOf(columnsFromDay(stored))).toEqual(day);
    expect(rowsOf(columnsFromReadings(day))).toEqual(day);
  });

  it('slice by time and join days in order', () => {
    const c = columnsFromReadings(day);
    const from = Date.parse(day[100]!.published_at);
    const to = Date.parse(day[199]!.published_at);
    expect(rowsOf(sliceColumns(c, from, to))).toEqual(day.slice(100, 200));
    expect(rowsOf(concatColumns([columnsFromReadings(day.slice(0, 10)), columnsFromReadings([]), columnsFromReadings(day.slice(10))]))).toEqual(day);
  });

  it('thin to the same readings as downsample on objects', () => {
    const c = columnsFromReadings(day);
    expect(rowsOf(c, downsampleIndices(seriesSource(c), 200))).toEqual(downsample(day, 200));
  });
});
