import { describe, expect, it } from 'vitest';
import { agitatorLabel, levelGraphic, relativeTime, temperatureBand, volumePercent } from './vat-card';

describe('levelGraphic (§9 milk level bar: 150 and 180 mm, scale 2000)', () => {
  it.each([
    [0, 0, 'low'],
    [149, 7.45, 'low'],
    [150, 7.5, 'mid'],
    [179, 8.95, 'mid'],
    [180, 9, 'high'],
    [1000, 50, 'high'],
    [2500, 100, 'high'],
    [-20, 0, 'low'],
  ])('%s mm fills %s%% in band %s', (mm, fill, band) => {
    const graphic = levelGraphic(mm);
    expect(graphic?.band).toBe(band);
    expect(graphic?.fillPercent).toBeCloseTo(fill, 6);
  });

  it('no level, no graphic', () => {
    expect(levelGraphic(null)).toBeUndefined();
    expect(levelGraphic(undefined)).toBeUndefined();
    expect(levelGraphic(Number.NaN)).toBeUndefined();
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
