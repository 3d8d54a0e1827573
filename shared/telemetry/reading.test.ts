import { describe, expect, it } from 'vitest';
import { telemetryMessageSchema } from './device-message';
import { canonicalTime, displayTemperature, displayVolume, implausibleForVat, levelFromRadar, toReading, volumeFromLevel } from './reading';

/** A 14,000 L vat of the installer table: diameter 2875 mm, height 2438 mm, wedge 60 mm. */
const vat = { vat_size: 14_000, vat_max_height: 2438, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0 };

describe('volume from level (operator §4)', () => {
  it('is (level − wedge height) × π × d² / 4,000,000 + offset, rounded to the litre', () => {
    // (1000 − 60) × π × 2875² / 4e6 = 6102.3…
    expect(volumeFromLevel(1000, vat)).toBe(6102);
    expect(volumeFromLevel(1000, { ...vat, vat_volume_offset: -50 })).toBe(6052);
  });

  it('is 0 at or below the wedge height, and never negative', () => {
    expect(volumeFromLevel(60, vat)).toBe(0);
    expect(volumeFromLevel(10, vat)).toBe(0);
    expect(volumeFromLevel(61, { ...vat, vat_volume_offset: -500 })).toBe(0);
  });

  it('takes the level as vat height minus radar distance, never below 0', () => {
    expect(levelFromRadar(2438, 1438)).toBe(1000);
    expect(levelFromRadar(2438, 2500)).toBe(0);
  });
});

describe('display rounding (farmer §9)', () => {
  it('rounds volume to the nearest 10 L and temperature to 1 decimal', () => {
    expect(displayVolume(6102)).toBe(6100);
    expect(displayVolume(6105)).toBe(6110);
    expect(displayTemperature(4.25)).toBe(4.3);
    expect(displayTemperature(-0.04)).toBe(-0);
  });
});

describe('a message as a stored reading', () => {
  const parse = (m: object) => telemetryMessageSchema.parse(m);

  it('computes level from the radar and volume from the level, keeping precise values', () => {
    const r = toReading(parse({ published_at: '2026-11-22T05:31:00+13:00', radar_distance: 1438, temp1: 4.27, battery: { status: '0x0A' } }), vat);
    expect(r).toMatchObject({ published_at: '2026-11-21T16:31:00.000Z', milk_level: 1000, milk_volume: 6102, temp1: 4.27, on_mains: false, battery_status: '0x0A', message_type: 'DATA' });
    expect(r.temp2).toBeNull();
  });

  it("prefers the device's own level to the radar", () => {
    expect(toReading(parse({ published_at: '2026-11-22T05:31:00Z', radar_distance: 1438, milk_level: 900 }), vat).milk_level).toBe(900);
  });

  it('has no volume without a level or a radar reading', () => {
    expect(toReading(parse({ published_at: '2026-11-22T05:31:00Z', temp1: 4 }), vat)).toMatchObject({ milk_level: null, milk_volume: null });
  });

  it('gives one key to one instant whatever the zone it was written in', () => {
    expect(canonicalTime('2026-11-22T18:31:00+13:00')).toBe(canonicalTime('2026-11-22T05:31:00.000Z'));
  });

  it('refuses a level or radar distance beyond the vat height (plus 100 mm)', () => {
    expect(implausibleForVat({ milk_level: 2538 }, vat)).toBeUndefined();
    expect(implausibleForVat({ milk_level: 2539 }, vat)).toBe("milk_level 2539 mm is above the vat's height of 2438 mm");
    expect(implausibleForVat({ radar_distance: 3000 }, vat)).toBe("radar_distance 3000 mm is beyond the vat's height of 2438 mm");
    expect(implausibleForVat({ radar_distance: null, milk_level: null }, vat)).toBeUndefined();
  });
});
