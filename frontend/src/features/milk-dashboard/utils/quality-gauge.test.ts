import { describe, expect, it } from 'vitest';
import { qualityGauge } from './quality-gauge';

describe('qualityGauge (§9)', () => {
  it.each([
    [4.3, 'NORISK', 'Excellent'],
    [4.31, 'LOW', 'Low risk'],
    [4.7, 'LOW', 'Low risk'],
    [5, 'MEDIUM', 'Medium risk'],
    [6, 'HIGH', 'High risk'],
    [6.01, 'CRITICAL', 'Do not collect'],
  ])('%s is %s (%s)', (value, risk, label) => {
    expect(qualityGauge({ currentEstCFU: value })).toMatchObject({ value, risk, label });
  });

  it('without an estimate says No quality reading (grey), the needle resting at the default 3; the needle sits on the 3 to 6.2 range', () => {
    expect(qualityGauge(null)).toEqual({ value: null, percent: 0, risk: 'NONE', label: 'No quality reading' });
    expect(qualityGauge({ currentEstCFU: null, alert: 0 })).toMatchObject({ value: null, risk: 'NONE', label: 'No quality reading' });
    expect(qualityGauge({ alert: 2, agitator: { timeAgitatorStop: 10 } })).toMatchObject({ value: 4.85, risk: 'MEDIUM' });
    expect(qualityGauge({ currentEstCFU: 9 }).percent).toBe(100);
    expect(qualityGauge({ currentEstCFU: 4.6 }).percent).toBeCloseTo(50, 6);
  });

  it('alert 2 with agitator data reads 4.85', () => {
    expect(qualityGauge({ currentEstCFU: 3.5, alert: 2, agitator: { timeAgitatorStop: 10, timeInVat: 100 } })).toMatchObject({ value: 4.85, risk: 'MEDIUM' });
    expect(qualityGauge({ currentEstCFU: 3.5, alert: 2 })).toMatchObject({ value: 3.5 });
  });
});
