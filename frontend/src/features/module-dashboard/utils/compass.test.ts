import { describe, expect, it } from 'vitest';
import { COMPASS_POINTS, compassPoint } from './compass';

describe('compassPoint (farmer §2.4: 16-point compass)', () => {
  it('names each point at its own bearing', () => {
    COMPASS_POINTS.forEach((point, index) => expect(compassPoint(index * 22.5)).toBe(point));
  });

  it.each([
    [0, 'N'],
    [11.24, 'N'],
    [11.25, 'NNE'],
    [33.74, 'NNE'],
    [33.75, 'NE'],
    [90, 'E'],
    [180, 'S'],
    [225, 'SW'],
    [292, 'WNW'],
    [348.74, 'NNW'],
    [348.75, 'N'],
    [359.9, 'N'],
    [360, 'N'],
    [405, 'NE'],
    [-22.5, 'NNW'],
    [-90, 'W'],
  ])('%s° → %s', (degrees, point) => {
    expect(compassPoint(degrees)).toBe(point);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('%s has no point', (degrees) => {
    expect(compassPoint(degrees)).toBeUndefined();
  });
});
