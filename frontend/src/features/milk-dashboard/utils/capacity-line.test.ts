import { describe, expect, it } from 'vitest';
import { zoneSuffix } from '../../../lib/time-format';
import { capacityLine } from './capacity-line';

const now = Date.parse('2026-11-24T08:00:00.000Z'); // 21:00 NZDT on Tue 24 Nov
const zone = 'Pacific/Auckland';
/** ' NZDT' where the browser's zone differs from the farm's (§9), '' where it is the same. */
const z = zoneSuffix(now, zone);
const base = { at80: null, atFull: null, over80: false, usualPickupTime: '09:00', fullBeforePickup: false };

describe('the vat card forecast line', () => {
  it('reads the farm clock to the nearest 5 minutes, with the day and the usual pickup', () => {
    // 06:41:40 NZDT on Wed 25 Nov.
    expect(capacityLine({ ...base, at80: '2026-11-24T17:41:40.000Z' }, now, zone)).toBe(`Reaches 80 % at about 06:40${z} tomorrow — next pickup usually 09:00`);
    expect(capacityLine({ ...base, at80: '2026-11-24T09:03:00.000Z' }, now, zone)).toBe(`Reaches 80 % at about 22:05${z} today — next pickup usually 09:00`);
    expect(capacityLine({ ...base, at80: '2026-11-26T01:00:00.000Z', usualPickupTime: null }, now, zone)).toBe(`Reaches 80 % at about 14:00${z} on Thursday`);
  });

  it('past 80 % it says when the vat is full; with nothing known, nothing', () => {
    expect(capacityLine({ ...base, over80: true, at80: '2026-11-24T08:00:00.000Z', atFull: '2026-11-25T03:15:00.000Z' }, now, zone)).toBe(`Full at about 16:15${z} tomorrow — next pickup usually 09:00`);
    expect(capacityLine({ ...base }, now, zone)).toBeUndefined();
    expect(capacityLine(null, now, zone)).toBeUndefined();
  });
});
