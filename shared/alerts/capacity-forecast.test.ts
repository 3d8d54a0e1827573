import { describe, expect, it } from 'vitest';
import { emptyCapacityHistory, forecastCapacity, recordMilking, recordPickup, sessionsOf, type CapacityHistory } from './capacity-forecast';

const H = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();
const DAY0 = Date.parse('2025-03-10T00:00:00.000Z');
const SIZE = 20_000;

/** A week of two milkings a day (05:30 for 2 h, 15:30 for 1.5 h; UTC farm), 4,000 and 3,000 L, a pickup every 2 days at 09:00. */
const history = (days = 7, pickupEvery = 2): CapacityHistory => {
  let h = emptyCapacityHistory();
  for (let d = 0; d < days; d++) {
    const day = DAY0 + d * 24 * H;
    h = recordMilking(h, { start: iso(day + 5.5 * H), end: iso(day + 7.5 * H), added: 4000 + (d % 2) * 100 }, SIZE);
    if (d % pickupEvery === 0) h = recordPickup(h, iso(day + 9 * H));
    h = recordMilking(h, { start: iso(day + 15.5 * H), end: iso(day + 17 * H), added: 3000 }, SIZE);
  }
  return h;
};

describe('capacity forecast', () => {
  it('learns two sessions with their times, lengths and litres', () => {
    const s = sessionsOf(history().milkings, DAY0 + 7 * 24 * H, 'UTC');
    expect(s.map((x) => [x.minute, x.lengthMs / H])).toEqual([
      [330, 2],
      [930, 1.5],
    ]);
    expect(s[1]?.added).toBe(3000);
  });

  it('finds when the vat crosses 80 % during a coming milking, and the usual pickup', () => {
    // Day 7, 18:00, 14,000 L in: the morning milking (05:30-07:30) adds ~4,050 L; 16,000 L is crossed 2,000/4,050 of the way.
    const now = DAY0 + 7 * 24 * H + 18 * H;
    const f = forecastCapacity({ now: iso(now), volume: 14_000, vatSize: SIZE, history: history(), timeZone: 'UTC' });
    const expected80 = DAY0 + 8 * 24 * H + 5.5 * H + (2000 / 4050) * 2 * H;
    expect(Math.abs(Date.parse(f.at80!) - expected80)).toBeLessThanOrEqual(60_000);
    // Full: 18,050 after the morning, 2,000 more of the afternoon's 3,000 over 1.5 h.
    expect(Math.abs(Date.parse(f.atFull!) - (DAY0 + 8 * 24 * H + 15.5 * H + (1950 / 3000) * 1.5 * H))).toBeLessThanOrEqual(60_000);
    expect(f.usualPickupTime).toBe('09:00');
    // Last pickup day 6 09:00, every 2 days: day 8 09:00, after the vat is at 80 % and before it is full.
    expect(f.nextPickup).toBe(iso(DAY0 + 8 * 24 * H + 9 * H));
    expect(f.fullBeforePickup).toBe(false);
  });

  it('says full before pickup when the tanker comes every third day', () => {
    const h = history(7, 3);
    const now = DAY0 + 7 * 24 * H + 18 * H;
    const f = forecastCapacity({ now: iso(now), volume: 14_000, vatSize: SIZE, history: h, timeZone: 'UTC' });
    // Pickups days 0, 3, 6: the next is day 9 09:00; full on day 8's afternoon.
    expect(f.nextPickup).toBe(iso(DAY0 + 9 * 24 * H + 9 * H));
    expect(f.fullBeforePickup).toBe(true);
  });

  it('counts a submitted pickup and its detected collection once', () => {
    const h = history(7, 2);
    const dup = h.pickups.map((p) => iso(Date.parse(p) + 30 * 60_000));
    const now = iso(DAY0 + 7 * 24 * H + 18 * H);
    const a = forecastCapacity({ now, volume: 1_000, vatSize: SIZE, history: h, timeZone: 'UTC' });
    const b = forecastCapacity({ now, volume: 1_000, vatSize: SIZE, history: h, submittedPickups: dup, timeZone: 'UTC' });
    expect(b.nextPickup).toBe(a.nextPickup);
  });

  it('uses the farm clock: a New Zealand farm milking at 05:30 local', () => {
    let h = emptyCapacityHistory();
    // 05:30 NZDT (UTC+13) is 16:30 UTC the day before.
    for (let d = 0; d < 5; d++) h = recordMilking(h, { start: iso(DAY0 + d * 24 * H + 16.5 * H), end: iso(DAY0 + d * 24 * H + 18.5 * H), added: 5000 }, SIZE);
    expect(sessionsOf(h.milkings, DAY0 + 5 * 24 * H, 'Pacific/Auckland').map((s) => s.minute)).toEqual([330]);
  });

  it('has no forecast without a volume or a history, and ignores milkings over a week old', () => {
    const now = iso(DAY0 + 30 * 24 * H);
    expect(forecastCapacity({ now, volume: null, vatSize: SIZE, history: history() }).at80).toBeNull();
    const f = forecastCapacity({ now, volume: 1000, vatSize: SIZE, history: history() });
    expect([f.at80, f.atFull]).toEqual([null, null]);
    expect(forecastCapacity({ now, volume: 17_000, vatSize: SIZE, history: emptyCapacityHistory() })).toMatchObject({ at80: now, over80: true, atFull: null, nextPickup: null });
  });

  it('a milking under way adds what its session still has to add', () => {
    const now = DAY0 + 7 * 24 * H + 6.5 * H; // half-way through the morning milking
    const f = forecastCapacity({ now: iso(now), volume: 14_000, vatSize: SIZE, history: history(), milkingSince: iso(now - H), timeZone: 'UTC' });
    // ~2,025 L still to come over the next hour: 16,000 crossed after 2,000/2,025 of it.
    expect(Math.abs(Date.parse(f.at80!) - (now + (2000 / 2025) * H))).toBeLessThanOrEqual(60_000);
  });
});
