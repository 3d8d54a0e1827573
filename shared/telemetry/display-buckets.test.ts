import { describe, expect, it } from 'vitest';
import { DEMO_DEVICES, DEMO_FARMS } from '../../local/seed/demo-data';
import { vatHistory } from '../../local/simulator/history';
import { displayCap, displayIndices, vatThresholds, type Threshold } from './display-buckets';
import type { SeriesField } from './display-buckets';
import type { Reading } from './reading';
import { columnsFromReadings, seriesSource } from './reading-columns';

const SERIES: SeriesField[] = ['temp1', 'milk_volume', 'milk_in', 'water_in'];
const farm = DEMO_FARMS.find((f) => f._id === 'farm-auto')!;
const device = DEMO_DEVICES.find((d) => d.farm_id === 'farm-auto')!;
const START = Date.parse('2026-06-01T00:00:00Z');

/** A month of one vat from the simulator's model, with an outage (3 h offline), a power cut and a chiller fault. */
const month: Reading[] = vatHistory(farm, device, START, 30 * 1440, [
  { kind: 'offline', atMinute: 12 * 1440, minutes: 180 },
  { kind: 'power_cut', atMinute: 20 * 1440 + 300, minutes: 60 },
  { kind: 'chiller_off', atMinute: 25 * 1440 + 400, minutes: 240 },
]).map((h) => h.reading);

const pick = (readings: readonly Reading[], points: number | undefined, thresholds: readonly Threshold[] = vatThresholds(device.vat_size)) =>
  displayIndices(seriesSource(columnsFromReadings(readings)), { points, series: SERIES, thresholds });

/** Runs of a series on either side of t, as [first, last] index pairs of the readings that carry it. */
const runs = (readings: readonly Reading[], field: SeriesField, t: number) => {
  const out: { above: boolean; from: number; to: number }[] = [];
  readings.forEach((r, i) => {
    const v = r[field];
    if (v === null) return;
    const above = v > t;
    const last = out.at(-1);
    if (last && last.above === above) last.to = i;
    else out.push({ above, from: i, to: i });
  });
  return out;
};

/** Pure random walk with spikes: a series no model smooths. */
const noisy = (n: number, seed: number): Reading[] => {
  let x = seed;
  const rnd = () => ((x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  let temp = 4;
  let vol = 5_000;
  return Array.from({ length: n }, (_, i) => {
    temp += (rnd() - 0.5) * 0.8 + (rnd() < 0.002 ? 9 : 0);
    temp = Math.min(40, Math.max(-2, temp + (4 - temp) * 0.01));
    vol = Math.max(0, vol + (rnd() - 0.45) * 40);
    return {
      published_at: new Date(START + i * 60_000).toISOString(),
      message_type: 'DATA',
      radar_distance: null,
      milk_level: null,
      milk_volume: vol,
      temp1: temp,
      temp2: null,
      temp3: null,
      temp4: null,
      temp5: null,
      temp6: null,
      pressure: null,
      shaft_rpm: null,
      agitator_status: rnd() < 0.5 ? 1 : 0,
      state_machine: i % 700 < 120 ? 'milking' : 'storage',
      battery_status: null,
      on_mains: true,
      milk_in: null,
      water_in: null,
      quality: null,
      controller_status: null,
    } as Reading;
  });
};

describe('displayIndices', () => {
  it('answers a range that fits as it is', () => {
    const few = month.slice(0, 500);
    expect(pick(few, 400)).toEqual(few.map((_, i) => i));
  });

  it.each([
    ['simulated month, 400 px', month, 400],
    ['simulated month, 120 px', month, 120],
    ['simulated month, no width', month, undefined],
    ['random walk with spikes, 300 px', noisy(20_000, 7), 300],
  ] as const)('%s: at most two points a pixel, ascending, first and last kept', (_, readings, points) => {
    const kept = pick(readings, points);
    expect(kept.length).toBeLessThanOrEqual(displayCap(points));
    expect(kept.length).toBeLessThanOrEqual(points === undefined ? 1_500 : 2 * points);
    expect(kept).toEqual([...new Set(kept)].sort((a, b) => a - b));
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(readings.length - 1);
  });

  it.each([
    ['simulated month', month, 400],
    // 155 runs about 10 °C: they and the milkings fit 1,000 px (at 300 they would not, and the cap wins).
    ['random walk with spikes', noisy(20_000, 11), 1_000],
  ] as const)('%s: every run beyond a threshold keeps its extreme, so every crossing is kept', (_, readings, points) => {
    const kept = new Set(pick(readings, points));
    for (const t of vatThresholds(device.vat_size)) {
      const raw = runs(readings, t.series, t.value);
      const shown = runs(
        readings.filter((_, i) => kept.has(i)),
        t.series,
        t.value,
      );
      // The kept series changes side exactly as often as the raw one does.
      expect(shown.length, `${t.series} ${t.value}`).toBe(raw.length);
      for (const run of raw) {
        const values = readings.slice(run.from, run.to + 1).map((r) => r[t.series] as number | null).filter((v): v is number => v !== null);
        const extreme = run.above ? Math.max(...values) : Math.min(...values);
        const keptValues = [...kept].filter((i) => i >= run.from && i <= run.to).map((i) => readings[i]?.[t.series]);
        expect(keptValues, `${t.series} ${t.value} run at ${run.from}`).toContain(extreme);
      }
    }
  });

  it('keeps the whole range\'s maximum and minimum of every chart series', () => {
    const kept = pick(month, 400).map((i) => month[i]!);
    for (const f of SERIES) {
      const all = month.map((r) => r[f]).filter((v): v is number => v !== null);
      if (all.length === 0) continue;
      const shown = kept.map((r) => r[f]).filter((v): v is number => v !== null);
      expect(Math.max(...shown), f).toBe(Math.max(...all));
      expect(Math.min(...shown), f).toBe(Math.min(...all));
    }
  });

  it('keeps every milking, collection and power boundary (state machine and mains changes)', () => {
    const kept = new Set(pick(month, 400));
    let state: string | null = null;
    let mains: boolean | null = null;
    let boundaries = 0;
    month.forEach((r, i) => {
      const changed = (r.state_machine !== null && state !== null && r.state_machine !== state) || (r.on_mains !== null && mains !== null && r.on_mains !== mains);
      if (r.state_machine !== null) state = r.state_machine;
      if (r.on_mains !== null) mains = r.on_mains;
      if (!changed) return;
      boundaries++;
      expect(kept.has(i), `${r.published_at} ${r.state_machine} ${String(r.on_mains)}`).toBe(true);
    });
    // The month has its milkings (two a day, four changes each), collections and the power cut.
    expect(boundaries).toBeGreaterThan(200);
  });

  it('keeps marked readings and holds the cap when the boundaries alone are too many', () => {
    const readings = noisy(5_000, 3).map((r, i) => ({ ...r, state_machine: i % 2 === 0 ? 'milking' : 'storage' }) as Reading);
    const kept = displayIndices(seriesSource(columnsFromReadings(readings)), { points: 100, series: SERIES });
    expect(kept.length).toBeLessThanOrEqual(200);
    const marked = displayIndices(seriesSource(columnsFromReadings(month)), { points: 400, series: SERIES, marked: (i) => i % 1000 === 5 });
    for (let i = 5; i < month.length; i += 1000) expect(marked).toContain(i);
  });

  it('keeps the min and max of each bucket: a short spike inside a quiet stretch survives', () => {
    const flat = noisy(30_000, 5).map((r) => ({ ...r, temp1: 4, milk_volume: 5_000, state_machine: 'storage' }) as Reading);
    flat[12_345] = { ...flat[12_345]!, temp1: 5.5 };
    flat[22_222] = { ...flat[22_222]!, milk_volume: 5_300 };
    const kept = pick(flat, 200, []);
    expect(kept).toContain(12_345);
    expect(kept).toContain(22_222);
    expect(kept.length).toBeLessThanOrEqual(400);
  });
});
