import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatChartTime,
  formatClock,
  formatCsvWhen,
  formatDay,
  formatTick,
  formatWhen,
  instantAt,
  instantOfPickerValue,
  niceTimeTicks,
  parsePickerDay,
  pickerDayText,
  pickerValue,
  wallClock,
  zoneShortName,
} from './time-format';

const AKL = 'Pacific/Auckland';
const at = (iso: string) => Date.parse(iso);
/** The browser's zone as the test says (jsdom runs in the machine's zone). */
const real = Intl.DateTimeFormat.prototype.resolvedOptions;
const browserIn = (timeZone: string) => {
  vi.restoreAllMocks();
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...real.call(this), timeZone };
  });
};
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the §9 formats in the farm zone', () => {
  // 22 Nov 2026 01:05 UTC is 14:05 NZDT on Sunday 22nd in Auckland, 01:05 GMT in London.
  const reading = '2026-11-22T01:05:09.000Z';

  it("'DD MMM YYYY HH:mm' with the farm's clock and its short name when the browser's zone differs", () => {
    browserIn('Europe/London');
    expect(formatWhen(reading, AKL)).toBe('22 Nov 2026 14:05 NZDT');
    expect(formatWhen('2026-11-22 01:05:09', AKL)).toBe('22 Nov 2026 14:05 NZDT');
    expect(formatWhen(at(reading), 'Europe/London')).toBe('22 Nov 2026 01:05');
  });

  it('no zone name when the browser reads the same clock', () => {
    browserIn(AKL);
    expect(formatWhen(reading, AKL)).toBe('22 Nov 2026 14:05');
    expect(formatChartTime(reading, AKL)).toBe('Sun, 22nd November 14:05');
    browserIn('Antarctica/McMurdo');
    expect(formatWhen(reading, AKL)).toBe('22 Nov 2026 14:05');
  });

  it("chart 'ddd, Do MMMM HH:mm' with ordinals", () => {
    browserIn('Europe/London');
    expect(formatChartTime(reading, AKL)).toBe('Sun, 22nd November 14:05 NZDT');
    expect(formatChartTime('2026-11-30T23:00:00Z', AKL)).toBe('Tue, 1st December 12:00 NZDT');
    expect(formatChartTime('2026-11-03T01:00:00Z', 'Europe/London')).toBe('Tue, 3rd November 01:00');
    expect(formatChartTime('2026-11-11T01:00:00Z', 'Europe/London')).toBe('Wed, 11th November 01:00');
    expect(formatChartTime('2026-11-12T01:00:00Z', 'Europe/London')).toBe('Thu, 12th November 01:00');
    expect(formatChartTime('2026-11-13T01:00:00Z', 'Europe/London')).toBe('Fri, 13th November 01:00');
  });

  it('the CSV gives the farm clock without a zone name (and seconds only when asked)', () => {
    browserIn('Europe/London');
    expect(formatCsvWhen(reading, AKL)).toBe('22 Nov 2026 14:05');
    expect(formatCsvWhen(reading, AKL, true)).toBe('22 Nov 2026 14:05:09');
  });

  it("'DD MMM YYYY' for a day, the picker's DD/MM/YYYY both ways", () => {
    expect(formatDay('2026-03-05')).toBe('05 Mar 2026');
    expect(pickerDayText('2026-03-05')).toBe('05/03/2026');
    expect(parsePickerDay('5/3/2026')).toBe('2026-03-05');
    expect(parsePickerDay('31/02/2026')).toBeUndefined();
  });

  it('ticks and clock times in the farm zone', () => {
    browserIn('Europe/London');
    expect(formatTick(at(reading), AKL)).toBe('Sun 14:05');
    expect(formatClock(reading, AKL)).toBe('14:05 NZDT');
    expect(formatClock(reading, AKL, false)).toBe('14:05');
  });

  it('short names', () => {
    expect(zoneShortName(at(reading), AKL)).toBe('NZDT');
    expect(zoneShortName(at('2026-07-01T00:00:00Z'), AKL)).toBe('NZST');
    expect(zoneShortName(at('2026-07-01T00:00:00Z'), 'Europe/London')).toBe('BST');
  });
});

describe('wall clock ↔ instant (the Pickup Time field)', () => {
  it("reads and writes the farm's clock whatever the browser's", () => {
    expect(pickerValue(at('2026-11-22T01:05:00Z'), AKL)).toBe('2026-11-22T14:05');
    expect(instantOfPickerValue('2026-11-22T14:05', AKL)).toBe(at('2026-11-22T01:05:00Z'));
    expect(instantOfPickerValue('2026-07-01T12:00', AKL)).toBe(at('2026-07-01T00:00:00Z'));
    expect(instantOfPickerValue('nonsense', AKL)).toBeNaN();
  });

  it('across daylight saving: a skipped time comes out after the change; a repeated one is the first', () => {
    // NZ clocks go 02:00 NZST → 03:00 NZDT on 27 Sep 2026 and 03:00 NZDT → 02:00 NZST on 5 Apr 2026.
    expect(instantAt(AKL, 2026, 9, 27, 2, 30)).toBe(at('2026-09-26T14:30:00Z'));
    expect(instantAt(AKL, 2026, 9, 27, 3, 0)).toBe(at('2026-09-26T14:00:00Z'));
    expect(instantAt(AKL, 2026, 4, 5, 2, 30)).toBe(at('2026-04-04T13:30:00Z'));
    expect(wallClock(at('2026-04-04T13:30:00Z'), AKL)).toMatchObject({ hour: 2, minute: 30 });
  });
});

describe('niceTimeTicks on the farm clock', () => {
  const nz = (y: number, mo: number, d: number, h = 0, mi = 0) => instantAt(AKL, y, mo, d, h, mi);

  it("puts two days of readings on the farm's midnights and every 12 hours, at most 6", () => {
    const ticks = niceTimeTicks(nz(2026, 3, 8, 9, 33), nz(2026, 3, 10, 9, 33), AKL);
    expect(ticks).toEqual([nz(2026, 3, 8, 12), nz(2026, 3, 9), nz(2026, 3, 9, 12), nz(2026, 3, 10)]);
  });

  it("puts a zoomed hour on whole quarter hours, and a month on the farm's midnights a week apart", () => {
    expect(niceTimeTicks(nz(2026, 3, 8, 9, 7), nz(2026, 3, 8, 10, 7), AKL)).toEqual([nz(2026, 3, 8, 9, 15), nz(2026, 3, 8, 9, 30), nz(2026, 3, 8, 9, 45), nz(2026, 3, 8, 10)]);
    const month = niceTimeTicks(nz(2026, 3, 1, 5), nz(2026, 3, 31, 5), AKL);
    expect(month).toEqual([nz(2026, 3, 2), nz(2026, 3, 9), nz(2026, 3, 16), nz(2026, 3, 23), nz(2026, 3, 30)]);
    for (const t of month) expect(wallClock(t, AKL)).toMatchObject({ hour: 0, minute: 0 });
  });

  it('keeps whole hours across the change to daylight saving', () => {
    const ticks = niceTimeTicks(nz(2026, 9, 27, 0, 10), nz(2026, 9, 27, 5, 10), AKL);
    for (const t of ticks) expect(wallClock(t, AKL).minute).toBe(0);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('never gives more than the limit, and one tick for an empty range', () => {
    for (const span of [5, 50, 500, 5_000, 50_000, 500_000]) {
      const ticks = niceTimeTicks(nz(2026, 1, 1), nz(2026, 1, 1) + span * 60_000, AKL);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.length).toBeGreaterThan(0);
    }
    expect(niceTimeTicks(5, 5, AKL)).toEqual([5]);
  });
});

describe('the wall clock read an hour of UTC at a time', () => {
  /** Intl's own reading of the instant, as every call made it before. */
  const formats = new Map<string, Intl.DateTimeFormat>();
  const intlClock = (instant: number, timeZone: string) => {
    let f = formats.get(timeZone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
      formats.set(timeZone, f);
    }
    const parts = f.formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return [get('year'), get('month'), get('day'), get('hour') % 24, get('minute'), get('second')];
  };
  const ours = (instant: number, timeZone: string) => {
    const w = wallClock(instant, timeZone);
    return [w.year, w.month, w.day, w.hour, w.minute, w.second];
  };
  const HOUR = 3_600_000;

  it('reads what Intl reads around every daylight-saving change of a year, half-hour and 45-minute zones included', () => {
    const zones = [AKL, 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Europe/London', 'Asia/Kathmandu'];
    const start = at('2026-01-01T00:00:00Z');
    const offset = (t: number, zone: string) => {
      const [y, mo, d, h, mi, s] = intlClock(t, zone) as [number, number, number, number, number, number];
      return Date.UTC(y, mo - 1, d, h, mi, s) - t;
    };
    const wrong: string[] = [];
    let changes = 0;
    for (const zone of zones) {
      for (let day = start; day < start + 365 * 24 * HOUR; day += 24 * HOUR) {
        // A day whose clock changed: every 4 min 13 s through it; other days, every 5 h 13 min.
        const changed = offset(day, zone) !== offset(day + 24 * HOUR, zone);
        if (changed) changes += 1;
        const step = changed ? 4 * 60_000 + 13_000 : 5 * HOUR + 13 * 60_000;
        for (let t = day; t < day + 24 * HOUR; t += step) if (ours(t, zone).join() !== intlClock(t, zone).join()) wrong.push(`${zone} ${new Date(t).toISOString()}`);
      }
    }
    expect(wrong).toEqual([]);
    // Auckland, Lord Howe, Chatham, St John's and London change twice; Kathmandu never.
    expect(changes).toBe(10);
  });

  it('reads an hour in which the clock changes instant by instant (Monrovia left -0:44:30 at 00:44:30 UTC on 7 Jan 1972)', () => {
    const wrong: string[] = [];
    for (let t = at('1972-01-06T23:30:00Z'); t < at('1972-01-07T02:00:00Z'); t += 17_000) {
      if (ours(t, 'Africa/Monrovia').join() !== intlClock(t, 'Africa/Monrovia').join()) wrong.push(new Date(t).toISOString());
    }
    expect(wrong).toEqual([]);
  });
});
