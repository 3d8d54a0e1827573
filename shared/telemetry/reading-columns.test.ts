import { describe, expect, it } from 'vitest';
import { fromDayColumns, toDayColumns } from './day-bucket';
import { displayIndices } from './display-buckets';
import { DEFAULT_DOWNSAMPLE_SERIES, downsample } from './downsample';
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

  it('join lazily: rows at indices come from their parts, columns read whole match, a column a part lacks is null', () => {
    const parts = [columnsFromReadings(day.slice(0, 7)), columnsFromReadings(day.slice(7, 50)), columnsFromReadings(day.slice(50))];
    const { controller_status: _, ...older } = parts[1]!.cols;
    const withOld = [parts[0]!, { t: parts[1]!.t, cols: older as typeof parts[1]['cols'] }, parts[2]!];
    const joined = concatColumns(withOld);
    const expected = day.map((r, i) => (i >= 7 && i < 50 ? { ...r, controller_status: null } : r));
    const picks = [0, 6, 7, 8, 49, 50, day.length - 1];
    expect(rowsOf(joined, picks)).toEqual(picks.map((i) => expected[i]));
    expect(joined.cols.temp1).toEqual(day.map((r) => r.temp1));
    expect(joined.cols.controller_status).toEqual(expected.map((r) => r.controller_status));
    expect(rowsOf(joined)).toEqual(expected);
  });

  it('thin to the same readings as downsample on objects', () => {
    const c = columnsFromReadings(day);
    expect(rowsOf(c, displayIndices(seriesSource(c), { maxPoints: 200, series: DEFAULT_DOWNSAMPLE_SERIES, agitatorChanges: true }))).toEqual(downsample(day, 200));
  });
});
