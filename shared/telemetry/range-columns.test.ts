import { describe, expect, it } from 'vitest';
import { DEMO_DEVICES, DEMO_FARMS } from '../../local/seed/demo-data';
import { vatHistory } from '../../local/simulator/history';
import { lastAllColumnsItemSchema } from '../api/actions/farmer-activity';
import { rangeColumnsSchema } from '../api/actions/range-columns';
import { vatThresholds } from './display-buckets';
import { emptyColumns, mergeColumns, rowsOfColumns, timeAt } from './range-columns';
import { columnsFromReadings } from './reading-columns';
import { vatSeries, vatSeriesColumns } from './vat-series';

const farm = DEMO_FARMS.find((f) => f._id === 'farm-auto')!;
const device = DEMO_DEVICES.find((d) => d.farm_id === 'farm-auto')!;
const START = Date.parse('2026-03-01T00:00:00.000Z');
const readings = vatHistory(farm, device, START, 4 * 1440, [{ kind: 'offline', atMinute: 2000, minutes: 120 }]).map((h) => h.reading);
const columns = columnsFromReadings(readings);
const options = { points: 300, series: ['temp1', 'milk_volume', 'milk_in', 'water_in'] as const, thresholds: vatThresholds(device.vat_size) };

describe('the columnar range answer (form=columns)', () => {
  it('holds the readings, cooler values and shadings the rows form holds, at the same times', () => {
    const rows = vatSeries(columns, options);
    const cols = vatSeriesColumns(columns, options);
    expect(cols.points).toBe(rows.points);
    expect(cols.columns.t).toHaveLength(rows.detailData.length);
    expect(rows.detailData.length).toBeLessThanOrEqual(600);
    rows.detailData.forEach((p, i) => {
      expect(new Date(timeAt(cols.columns, i)).toISOString()).toBe(p.published_at);
      // The simulator reports tenths of a degree and whole litres: the sensor's step changes nothing.
      for (const f of ['milk_level', 'milk_volume', 'temp1', 'temp2', 'temp3', 'temp4', 'temp5', 'agitator_status'] as const) expect(cols.columns[f][i] ?? undefined).toBe(p[f]);
    });
    // The cooler rows the rows form keeps are the readings with a cooler value in the columns.
    expect(rowsOfColumns(cols.columns).cooler).toEqual(rows.coolerData);
    expect({ ...cols, columns: undefined }).toEqual({ ...rows, detailData: undefined, coolerData: undefined, columns: undefined });
    expect(lastAllColumnsItemSchema.shape.columns.safeParse(cols.columns).success).toBe(true);
  });

  it("rounds values to the sensor's step: tenths of a degree, whole litres and millimetres", () => {
    const odd = columnsFromReadings(readings.slice(0, 3).map((r, i) => ({ ...r, temp1: 4.04 + i * 0.1001, milk_volume: 1000.6, milk_level: 300.4 })));
    const { columns: c } = vatSeriesColumns(odd, options);
    expect(c.temp1).toEqual([4, 4.1, 4.2]);
    expect(c.milk_volume).toEqual([1001, 1001, 1001]);
    expect(c.milk_level).toEqual([300, 300, 300]);
  });

  it('a refresh merges on the old base: old readings from the range start to since, then the new', () => {
    const { columns: whole } = vatSeriesColumns(columns, options);
    const since = timeAt(whole, 100);
    const from = timeAt(whole, 10);
    const { columns: fresh } = vatSeriesColumns(columns, { ...options, after: since });
    const merged = mergeColumns(whole, fresh, from, since);
    expect(merged.base).toBe(new Date(from).toISOString());
    const times = merged.t.map((_, i) => timeAt(merged, i));
    expect(times.slice(0, 91)).toEqual(whole.t.slice(10, 101).map((_, i) => timeAt(whole, i + 10)));
    expect(times.slice(91)).toEqual(fresh.t.map((_, i) => timeAt(fresh, i)));
    expect(merged.temp1).toEqual([...whole.temp1.slice(10, 101), ...fresh.temp1]);
    expect(mergeColumns(emptyColumns(whole.base), fresh, from, since)).toBe(fresh);
  });

  it('the schema refuses columns of another length than the times', () => {
    const c = emptyColumns('2026-03-01T00:00:00.000Z');
    c.t.push(0);
    for (const f of ['milk_level', 'milk_volume', 'temp1', 'temp2', 'temp3', 'temp4', 'temp5', 'agitator_status', 'milk_in'] as const) c[f].push(null);
    expect(rangeColumnsSchema.safeParse(c).success).toBe(false);
    c.water_in.push(1.5);
    expect(rangeColumnsSchema.safeParse(c).success).toBe(true);
  });
});
