import { describe, expect, it } from 'vitest';
import { reading } from '../telemetry/testing/trace';
import type { Reading } from '../telemetry/reading';
import { evaluate } from './engine';
import { initialAlertState, type AlertContext, type AlertEngineState } from './engine-state';
import { forecastCapacity } from './capacity-forecast';
import { DEFAULT_ALERT_SETTINGS } from './settings';

/**
 * The capacity forecast inside the alert engine (202 'Vat will be full before pickup') on
 * minute traces: two milkings a day (05:30-07:30 and 15:30-17:00 farm time)
 * into a 20,000 L vat (4,500 and 3,600 L), the tanker at 09:00 on the days given (1,000 L/min).
 */
const START = Date.parse('2025-03-10T00:00:00.000Z');
const MIN = 60_000;
const SIZE = 20_000;
const ctx: AlertContext = { vat: { vat_size: SIZE }, settings: DEFAULT_ALERT_SETTINGS, pro: false, dairyCompany: false, auto: false, timezone: 'UTC' };

const dayTrace = (days: number, pickupDays: (d: number) => boolean, startVolume = 0): Reading[] => {
  const out: Reading[] = [];
  let volume = startVolume;
  for (let d = 0; d < days; d++) {
    for (let m = 0; m < 1440; m++) {
      const milking = (m >= 330 && m < 450) || (m >= 930 && m < 1020);
      if (m >= 330 && m < 450) volume += 4500 / 120;
      if (m >= 930 && m < 1020) volume += 3600 / 90;
      const pumping = pickupDays(d) && m >= 540 && volume > 0;
      if (pumping) volume = Math.max(0, volume - 1000);
      volume = Math.min(volume, SIZE * 1.02);
      const empty = volume < 1;
      out.push(
        reading({
          published_at: new Date(START + (d * 1440 + m) * MIN).toISOString(),
          milk_volume: Math.round(volume),
          temp1: milking ? 11 : empty ? 14 : 4,
          agitator_status: 1,
          state_machine: milking ? 'milking' : empty ? 'empty' : 'storage',
          battery: '0x0B',
        }),
      );
    }
  }
  return out;
};

const run = (readings: Reading[], c: AlertContext = ctx) => {
  let state: AlertEngineState = initialAlertState();
  const raised: { type: number; at: string; detail?: string }[] = [];
  const cleared: { type: number; at: string }[] = [];
  for (const r of readings) {
    const step = evaluate(state, r, c);
    state = step.state;
    for (const a of step.raised) raised.push({ type: a.type, at: r.published_at, ...(a.detail ? { detail: a.detail } : {}) });
    for (const t of step.cleared) cleared.push({ type: t, at: r.published_at });
  }
  return { state, raised: raised.filter((a) => a.type === 202), cleared: cleared.filter((c) => c.type === 202) };
};

describe('alert 202 Vat will be full before pickup', () => {
  it('a tanker every third day: raised once per fill cycle, before the vat is full, cleared by the collection', () => {
    // 8,100 L a day: full early on the third day after a pickup, before the tanker at 09:00; pickups on days 0, 3, 6, 9.
    const readings = dayTrace(12, (d) => d % 3 === 0);
    const { raised, cleared, state } = run(readings);
    expect(state.capacity?.pickups.length).toBe(4);
    // No pickup is expected before two are known (day 3); then once in each later cycle (3-6, 6-9, 9-12).
    expect(raised.length).toBe(3);
    for (const a of raised) {
      expect(a.detail).toMatch(/^full at about \d\d:\d\d \w+ \d+ \w+, next pickup expected 09:00 \w+ \d+ \w+$/);
    }
    // Raised at a milking end at least half a day before the vat is full (the last cycle fills after the trace ends).
    const lead = raised.slice(0, 2).map((a) => Date.parse(readings.find((r) => r.published_at > a.at && (r.milk_volume ?? 0) >= SIZE)!.published_at) - Date.parse(a.at));
    expect(lead.every((ms) => ms > 12 * 60 * MIN)).toBe(true);
    // Each raise is cleared by the next collection (the last cycle's is still open), so it is one per cycle and never flaps.
    expect(cleared.length).toBe(2);
    expect(cleared.every((c, i) => c.at > (raised[i]?.at ?? ''))).toBe(true);
  });

  it('a tanker every other day: the vat never fills, no 202', () => {
    const { raised, state } = run(dayTrace(12, (d) => d % 2 === 0));
    expect(state.capacity?.milkings.length).toBeGreaterThanOrEqual(14);
    expect(raised).toEqual([]);
  });

  it('pickups the farmer submitted count: with earlier ones every other day on record, a missed pickup is seen in the first cycle', () => {
    // Before the trace the farmer entered pickups every other day at 09:00 (days -10 to -2), and
    // entered day 0 too, half an hour after the collection the engine detected (counted once).
    const submitted = [-10, -8, -6, -4, -2, 0].map((d) => new Date(START + (d * 1440 + 540 + (d >= 0 ? 30 : 0)) * MIN).toISOString());
    const readings = dayTrace(3, (d) => d === 0);
    expect(run(readings).raised).toEqual([]);
    // The tanker usually comes every other day: on day 2 at 09:00 it did not, so it is expected on day 3 at 09:00, after the vat fills at about 07:11.
    const { raised } = run(readings, { ...ctx, submittedPickups: submitted });
    expect(raised).toEqual([{ type: 202, at: '2025-03-12T17:00:00.000Z', detail: 'full at about 07:11 Thu 13 Mar, next pickup expected 09:00 Thu 13 Mar' }]);
  });

  it('the forecast from the engine state after day 10 puts 80 % within 10 minutes of the trace', () => {
    const readings = dayTrace(12, (d) => d % 3 === 0);
    const cut = readings.findIndex((r) => r.published_at === new Date(START + (9 * 1440 + 1100) * MIN).toISOString());
    const { state } = run(readings.slice(0, cut + 1));
    const last = readings[cut]!;
    const f = forecastCapacity({ now: last.published_at, volume: last.milk_volume, vatSize: SIZE, history: state.capacity!, timeZone: 'UTC' });
    const actual = readings.slice(cut).find((r) => (r.milk_volume ?? 0) >= 0.8 * SIZE)!;
    expect(Math.abs(Date.parse(f.at80!) - Date.parse(actual.published_at))).toBeLessThanOrEqual(10 * MIN);
    expect(f.nextPickup).toBe(new Date(START + (12 * 1440 + 540) * MIN).toISOString());
  });
});
