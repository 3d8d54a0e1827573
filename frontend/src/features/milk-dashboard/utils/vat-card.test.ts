import { describe, expect, it } from 'vitest';
import { agitatorLabel, coolingLines, countdownText, levelBand, levelGraphic, relativeTime, temperatureBand, volumePercent } from './vat-card';

describe('levelGraphic (§9 milk level bar: colour thresholds 150 and 180 mm; the fill is the volume percent)', () => {
  it.each([
    // [volume %, level mm, fill %, band]
    [0, 0, 0, 'low'],
    [5, 149, 5, 'low'],
    [6, 150, 6, 'mid'],
    [7, 179, 7, 'mid'],
    [8, 180, 8, 'high'],
    // The report: 44 % of a 3.5 m vat is about 1,540 mm, over three quarters of a 2000 mm scale.
    [44, 1540, 44, 'high'],
    // A 3.5 m vat holds more than 2000 mm of milk long before it is full.
    [70, 2450, 70, 'high'],
    [104, 2600, 100, 'high'],
    [-1, 0, 0, 'low'],
  ])('%s %% at %s mm fills %s %% in band %s', (pct, mm, fill, band) => {
    expect(levelGraphic(pct, mm)).toEqual({ fillPercent: fill, band });
  });

  it('colours by the level in mm, not by the percent', () => {
    expect(levelGraphic(12, 160)?.band).toBe('mid');
    expect(levelBand(149.9)).toBe('low');
  });

  it('no volume, no graphic; a volume without a level fills without a colour band', () => {
    expect(levelGraphic(null, 900)).toBeUndefined();
    expect(levelGraphic(undefined, 900)).toBeUndefined();
    expect(levelGraphic(Number.NaN, 900)).toBeUndefined();
    expect(levelGraphic(30, null)).toEqual({ fillPercent: 30, band: undefined });
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

describe('the cooling clock (issue 25)', () => {
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
