import { describe, expect, it } from 'vitest';
import { agitatorLabel, coolingLines, countdownText, levelBand, levelGraphic, relativeTime, temperatureBand, volumePercent } from './vat-card';

describe('levelGraphic (farmer row 215, §9 milk level bar: the level on a 2000 mm scale, coloured at 150 and 180 mm)', () => {
  it.each([
    // [level mm, fill %, band, over the scale]
    [0, 0, 'low', false],
    [149, 7.45, 'low', false],
    [150, 7.5, 'mid', false],
    [179, 8.95, 'mid', false],
    [180, 9, 'high', false],
    [1000, 50, 'high', false],
    [2000, 100, 'high', false],
    // A 3.5 m vat at 44 %: about 1,540 mm, 77 % of the scale; over 2000 mm the bar is full and says so.
    [1540, 77, 'high', false],
    [2600, 100, 'high', true],
  ] as const)('%s mm fills %s %% (%s)', (mm, fill, band, overScale) => {
    expect(levelGraphic(mm)).toEqual({ fillPercent: fill, band, overScale });
  });

  it('no level, no graphic', () => {
    expect(levelGraphic(null)).toBeUndefined();
    expect(levelGraphic(undefined)).toBeUndefined();
    expect(levelGraphic(Number.NaN)).toBeUndefined();
    expect(levelBand(149.9)).toBe('low');
  });
});

describe('temperatureBand (§9 -10, 0, 6, 10)', () => {
  it.each([
    [-5, 'freezing'],
    [0, 'good'],
    [6, 'good'],
    [6.1, 'warm'],
    [10, 'warm'],
    [10.1, 'hot'],
  ])('%s °C is %s', (c, band) => {
    expect(temperatureBand(c)).toBe(band);
  });
});

describe('agitatorLabel', () => {
  it('1 Running, 0 Stopped, anything else unknown', () => {
    expect(agitatorLabel(1)).toBe('Running');
    expect(agitatorLabel(0)).toBe('Stopped');
    expect(agitatorLabel(2)).toBeUndefined();
    expect(agitatorLabel(null)).toBeUndefined();
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it.each([
    ['2026-03-10T08:40:00Z', '3 hours ago'],
    ['2026-03-10T11:59:00Z', '1 minute ago'],
    ['2026-03-10T11:59:30Z', '30 seconds ago'],
    ['2026-03-08T11:00:00Z', '2 days ago'],
    ['2026-03-10T12:00:00Z', 'now'],
    ['2026-03-10T12:05:00Z', 'now'],
  ])('%s is %s', (iso, text) => {
    expect(relativeTime(iso, now)).toBe(text);
  });
  it('an unreadable time is undefined', () => {
    expect(relativeTime('soon', now)).toBeUndefined();
  });
});

describe('volumePercent', () => {
  it('rounds to whole percent; no size, no percent', () => {
    expect(volumePercent(4321, 10000)).toBe(43);
    expect(volumePercent(100, 0)).toBeUndefined();
  });
});

describe('the cooling clock', () => {
  it('counts down in hours and minutes, rounding up', () => {
    expect(countdownText(72 * 60_000)).toBe('1 h 12 min');
    expect(countdownText(45 * 60_000 - 1)).toBe('45 min');
    expect(countdownText(120 * 60_000)).toBe('2 h');
    expect(countdownText(-5)).toBe('0 min');
  });

  it('waits for the fit, and says when a deadline has passed', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const target = { rule: 'R2' as const, limit: 6, deadline: '2026-03-10T11:50:00Z', reached_at: null, predicted_at: null, at_risk: false };
    const clock = (at: string) => at.slice(11, 16);
    expect(coolingLines([target], false, now, clock)).toEqual([{ rule: 'R2', deadline: '6 °C by 11:50 — deadline passed', prediction: 'Predicted after 10 minutes of cooling', risk: false }]);
  });

  it('keeps the deadline but drops a quiet vat\'s prediction (fitted to readings that stopped)', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const late = { rule: 'R2' as const, limit: 6, deadline: '2026-03-10T13:00:00Z', reached_at: null, predicted_at: '2026-03-10T13:40:00Z', at_risk: true };
    const clock = (at: string) => at.slice(11, 16);
    expect(coolingLines([late], true, now, clock)).toEqual([{ rule: 'R2', deadline: '6 °C by 13:00 — 1 h', prediction: 'Predicted 13:40 — after the deadline', risk: true }]);
    expect(coolingLines([late], true, now, clock, true)).toEqual([{ rule: 'R2', deadline: '6 °C by 13:00 — 1 h', prediction: 'No prediction: the vat is not sending', risk: true }]);
  });
});
