import { describe, expect, it } from 'vitest';
import { columnsFromReadings } from './reading-columns';
import { thinCooler, thinRuns, thinStops, vatSeries } from './vat-series';
import { at, reading } from './testing/trace';

const MIN = 60_000;
const t = (minute: number) => new Date(Date.parse('2025-03-10T00:00:00.000Z') + minute * MIN).toISOString();
const stop = (a: number, b: number | null) => ({ start: { published_at: t(a) }, end: b === null ? null : { published_at: t(b) } });

describe('thinStops', () => {
  it('joins stops across running shorter than a pixel and keeps every stopped minute in a band', () => {
    const stops = [stop(0, 55), stop(60, 115), stop(120, 175), stop(400, 410), stop(600, null)];
    const out = thinStops(stops, 10 * MIN);
    expect(out).toEqual([stop(0, 175), stop(400, 410), stop(600, null)]);
    for (const s of stops) {
      const covering = out.find((b) => b.start.published_at <= s.start.published_at && (b.end === null || (s.end !== null && s.end.published_at <= b.end.published_at)));
      expect(covering, s.start.published_at).toBeDefined();
    }
  });

  it('keeps every stop at a pixel shorter than the running between them', () => {
    const stops = [stop(0, 55), stop(60, 115)];
    expect(thinStops(stops, 5 * MIN)).toEqual(stops);
  });
});

describe('thinRuns', () => {
  const run = (a: number, b: number, phystate: string) => ({ start: t(a), end: t(b), phystate });
  it('joins short runs into the run before within milking or within not milking, so milking starts and ends and collections stay', () => {
    const runs = [
      run(0, 100, 'storage'),
      run(100, 101, 'som'),
      run(101, 200, 'milking'),
      run(200, 203, 'eom'),
      run(203, 300, 'storage'),
      run(300, 302, 'startup'),
      run(302, 400, 'storage'),
      run(400, 402, 'empty'),
      run(402, 500, 'startup'),
    ];
    expect(thinRuns(runs, 10 * MIN)).toEqual([
      run(0, 100, 'storage'),
      // som is short but milking follows storage: the milking start stays at 100.
      run(100, 101, 'som'),
      // eom joins milking: the milking end stays at 203.
      run(101, 203, 'milking'),
      run(203, 302, 'storage'),
      run(302, 400, 'storage'),
      // storage → empty is a collection, kept however short.
      run(400, 402, 'empty'),
      run(402, 500, 'startup'),
    ]);
  });
});

describe('thinCooler', () => {
  it('leaves out rows equal to both neighbours, keeping the first and last', () => {
    const row = (m: number, mi: number | null, w: number | null) => ({ published_at: t(m), milk_in: mi, water_in: w });
    const rows = [row(0, 30, 14), row(1, 30, 14), row(2, 30, 14), row(3, 31, 14), row(4, 31, 14)];
    expect(thinCooler(rows)).toEqual([row(0, 30, 14), row(2, 30, 14), row(3, 31, 14), row(4, 31, 14)]);
  });
});

describe('vatSeries', () => {
  it('answers the points before thinning, the thinned rows and the shadings at the same pixel', () => {
    // Two days a minute apart, the agitator stirring 5 minutes in 30, one stop of an hour.
    const rs = Array.from({ length: 2 * 1440 }, (_, i) =>
      reading({ published_at: at(i), temp1: 4 + (i % 7) / 10, milk_volume: 1_000 + i, agitator_status: (i >= 1_000 && i < 1_060) || i % 30 >= 5 ? 0 : 1 }),
    );
    const whole = vatSeries(columnsFromReadings(rs), { maxPoints: 10_000, series: ['temp1', 'milk_volume'] });
    const chart = vatSeries(columnsFromReadings(rs), { points: 100, series: ['temp1', 'milk_volume'] });
    expect(whole.points).toBe(rs.length);
    expect(chart.points).toBe(rs.length);
    expect(whole.detailData).toHaveLength(rs.length);
    expect(chart.detailData.length).toBeLessThanOrEqual(200);
    // 96 stops of 25 minutes with 5 minutes of running between: a 29-minute pixel joins them.
    expect(whole.agitatorData.listStop.length).toBeGreaterThan(90);
    expect(chart.agitatorData.listStop.length).toBeLessThan(5);
    expect(chart.agitatorData.listStop[0]?.start.published_at).toBe(whole.agitatorData.listStop[0]?.start.published_at);
    const after = Date.parse(at(2_000));
    const since = vatSeries(columnsFromReadings(rs), { points: 100, series: ['temp1'], after });
    expect(since.points).toBe(rs.length - 2_001);
    expect(since.detailData.every((p) => Date.parse(p.published_at) > after)).toBe(true);
  });
});
