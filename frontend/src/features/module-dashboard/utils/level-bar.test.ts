import { describe, expect, it } from 'vitest';
import { levelBar } from './level-bar';

describe('levelBar (farmer §2.4: bars clamp at 95% height and 100%)', () => {
  it.each([
    [0, 0, 0],
    [42.5, 42.5, 42.5],
    [94, 94, 94],
    [95, 95, 95],
    [96, 96, 95],
    [100, 100, 95],
    [130, 100, 95],
    [-5, 0, 0],
  ])('%s → %s%% shown, %s%% drawn', (value, percent, height) => {
    expect(levelBar(value)).toEqual({ percent, height });
  });

  it.each([null, undefined, Number.NaN])('%s draws no bar', (value) => {
    expect(levelBar(value)).toBeUndefined();
  });
});
