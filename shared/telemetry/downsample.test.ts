import { describe, expect, it } from 'vitest';
import { CHART_POINT_CAP } from '../constants';
import { downsample } from './downsample';
import type { Reading } from './reading';
import { at, reading, trace } from './testing/trace';

/** 30 days of one-minute readings: 43,200, the longest range a chart asks for. */
const month = trace({ days: 30, noise: 20 });

const isSubsequence = (sub: readonly Reading[], of: readonly Reading[]): boolean => {
  let j = 0;
  for (const r of of) if (j < sub.length && sub[j] === r) j++;
  return j === sub.length;
};

describe('downsample', () => {
  it('returns an input that fits as it is, in the same order', () => {
    const day = trace();
    const out = downsample(day, CHART_POINT_CAP);
    expect(out).toEqual(day);
    expect(out).not.toBe(day);
    expect(out.every((r, i) => r === day[i])).toBe(true);
    expect(downsample(day, day.length)).toEqual(day);
    expect(downsample([], 10)).toEqual([]);
  });

  it('holds the cap on a month of readings and keeps them in time order', () => {
    expect(month).toHaveLength(43_200);
    for (const cap of [CHART_POINT_CAP, 2_000, 500, 50, 10, 2, 1]) {
      const out = downsample(month, cap);
      expect(out.length, `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(isSubsequence(out, month), `cap ${cap}`).toBe(true);
    }
    // Readings holding several extremes at once count once, so the budget is not filled to the last point.
    expect(downsample(month, CHART_POINT_CAP).length).toBeGreaterThan(CHART_POINT_CAP * 0.7);
    expect(downsample(month, 0)).toEqual([]);
  });

  it('keeps a single 12 °C spike among 43,200 readings', () => {
    const spiked = month.map((r, i) => (i === 20_000 ? { ...r, temp1: 12 } : r));
    const out = downsample(spiked, CHART_POINT_CAP);
    expect(out).toContain(spiked[20_000]);
    expect(out.filter((r) => r.temp1 === 12)).toHaveLength(1);
  });

  it('keeps a single 12 °C spike in a month of flat 4 °C readings, with the cap met', () => {
    const flat = Array.from({ length: 43_200 }, (_, i) => reading({ published_at: at(i), temp1: i === 31_337 ? 12 : 4, milk_volume: 9_000 }));
    const out = downsample(flat, CHART_POINT_CAP);
    expect(out).toContain(flat[31_337]);
    expect(out.length).toBeLessThanOrEqual(CHART_POINT_CAP);
  });

  it('keeps the minimum and maximum of each series over the whole range', () => {
    const out = downsample(month, 1_000);
    const extremes = (rs: readonly Reading[], f: 'temp1' | 'milk_volume') => {
      const vs = rs.map((r) => r[f]).filter((v): v is number => v !== null);
      return [Math.min(...vs), Math.max(...vs)];
    };
    expect(extremes(out, 'temp1')).toEqual(extremes(month, 'temp1'));
    expect(extremes(out, 'milk_volume')).toEqual(extremes(month, 'milk_volume'));
  });

  it('always keeps the first, the last and every change of agitator, state machine and mains', () => {
    const busy = trace({ days: 30, agitatorStops: [[5_000, 5_003], [30_000, 30_001]], batteryOff: [[12_345, 12_346]] });
    const out = downsample(busy, 1_000);
    expect(out[0]).toBe(busy[0]);
    expect(out.at(-1)).toBe(busy.at(-1));
    for (let i = 1; i < busy.length; i++) {
      const [p, r] = [busy[i - 1] as Reading, busy[i] as Reading];
      if (p.agitator_status !== r.agitator_status || p.state_machine !== r.state_machine || p.on_mains !== r.on_mains) {
        expect(out, `reading ${i}`).toContain(r);
      }
    }
    expect(out).toContain(busy[12_345]);
    expect(out).toContain(busy[12_346]);
  });

  it('does not count a missing value (null) as a change', () => {
    const make = (gappy: boolean) =>
      Array.from({ length: 100 }, (_, i) =>
        reading({ published_at: at(i), temp1: 4, milk_volume: 5_000, agitator_status: gappy && i % 2 === 1 ? null : 1, state_machine: gappy && i % 3 === 0 ? null : 'storage' }),
      );
    // Nothing changes in either: both keep the first, the last and bucket extremes only (a gappy
    // bucket's agitator extreme may fall on another reading, so the counts may differ by one). Were
    // a null a change, the gappy one would be its 66 changes thinned evenly to the cap.
    const [gappy, whole] = [downsample(make(true), 10), downsample(make(false), 10)];
    expect(Math.abs(gappy.length - whole.length)).toBeLessThanOrEqual(1);
    expect(gappy.filter((r) => r.agitator_status === null).length).toBeLessThan(5);
    expect(downsample(make(true), 10).length).toBeLessThanOrEqual(10);
  });

  it('thins the changes evenly when they alone outnumber the cap', () => {
    const flapping = Array.from({ length: 1_000 }, (_, i) => reading({ published_at: at(i), agitator_status: i % 2 === 0 ? 1 : 0 }));
    const out = downsample(flapping, 100);
    expect(out).toHaveLength(100);
    expect(out[0]).toBe(flapping[0]);
    expect(out.at(-1)).toBe(flapping.at(-1));
    expect(isSubsequence(out, flapping)).toBe(true);
  });

  it('buckets by time, and the buckets over a long outage leave their share to the readings around it', () => {
    // Two days of readings with ten days of nothing between: the buckets over the gap stay empty,
    // and the bucket count grows until the two days use the budget.
    const rs = [...trace({ days: 1 }), ...trace({ days: 1, start: '2025-03-21T00:00:00.000Z' })];
    const out = downsample(rs, 400);
    const firstDay = out.filter((r) => r.published_at < '2025-03-11').length;
    expect(firstDay).toBeGreaterThan(100);
    expect(out.length - firstDay).toBeGreaterThan(100);
    expect(out.length).toBeLessThanOrEqual(400);
  });

  it('can keep the extremes of other series too', () => {
    const cip = month.map((r, i) => (i === 777 ? { ...r, temp5: 95 } : r));
    expect(downsample(cip, 500)).not.toContain(cip[777]);
    expect(downsample(cip, 500, { series: ['temp1', 'milk_volume', 'temp5'] })).toContain(cip[777]);
  });

  it('reads non-canonical times too', () => {
    const rs = Array.from({ length: 50 }, (_, i) => reading({ published_at: `2025-03-10T00:${String(i).padStart(2, '0')}:00+00:00`, temp1: i === 33 ? 9 : 4 }));
    expect(downsample(rs, 6)).toContain(rs[33]);
  });
});
