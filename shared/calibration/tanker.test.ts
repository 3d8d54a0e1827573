import { describe, expect, it } from 'vitest';
import { tankerDifference, tankerFigureFor, tankerVerdict } from './tanker';

describe('dockets against the vat', () => {
  const collection = { start: '2026-11-01T10:00:00.000Z', end: '2026-11-01T10:25:00.000Z' };
  it("takes the docket nearest the collection's start within 30 minutes, else the farmer's pickup", () => {
    const dockets = [
      { PickupDateTime: '2026-11-01T09:20:00Z', Volume: 1, Temperature: 4 },
      { PickupDateTime: '2026-11-01T10:05:00Z', Volume: 9600, Temperature: 3.9 },
      { PickupDateTime: '2026-11-01T10:20:00Z', Volume: 2, Temperature: 4 },
    ];
    expect(tankerFigureFor(collection, dockets, [])).toEqual({ volume: 9600, temperature: 3.9, source: 'docket', at: '2026-11-01T10:05:00Z' });
    const pickups = [{ datetime: '2026-11-01T10:50:00.000Z', volume: 9500, temperature: null }];
    expect(tankerFigureFor(collection, [], pickups)).toMatchObject({ volume: 9500, source: 'pickup' });
    expect(tankerFigureFor(collection, [], [{ datetime: '2026-11-01T11:00:00.000Z', volume: 9500, temperature: null }])).toBeNull();
  });

  it('gives the difference in litres and % of the tanker', () => {
    expect(tankerDifference(9600, 10000)).toEqual({ litres: -400, percent: -4 });
    expect(tankerDifference(100, 0)).toEqual({ litres: 100, percent: null });
  });

  it('differs when the median of the last 5 is beyond 3 %, agrees within 2.5 %, and needs 5', () => {
    expect(tankerVerdict([-4, -4.1, -3.9, -4, -4])).toEqual({ status: 'differs', median: -4 });
    // One odd docket does not move a median.
    expect(tankerVerdict([0.2, -0.1, 12, 0, 0.3, -9, -9])).toEqual({ status: 'agrees', median: 0.2 });
    expect(tankerVerdict([-2.8, -2.9, -2.7, -2.8, -2.8])).toEqual({ status: 'unknown' });
    expect(tankerVerdict([-4, -4, -4, -4])).toEqual({ status: 'unknown' });
  });
});
