import { describe, expect, it } from 'vitest';
import { averageDiameter, calibrateRow, diameterFor, endPointOf, maxHeightFromRadar, radarAfterToHeight, startPointOf, volumeThreshold, type CalibrationConfig, type CalibrationRow } from './formula';

const vat: CalibrationConfig = { height: 2438, diameter: 2875, wedgeHeight: 60, volumeOffset: 0 };
const row = (r: Partial<CalibrationRow>): CalibrationRow => ({ startRadar: 938, endRadar: 2438, fonterraVolume: null, fonterraTemperature: null, temperature: null, omit: false, ...r });

describe('calibration formula (operator §4)', () => {
  it('level = round(height − radar); volume = round((level − wedge) × π d² / 4e6 + offset)', () => {
    expect(startPointOf(2438, 938.4, vat)).toEqual({ level: 1500, volume: Math.round(1440 * ((Math.PI * 2875 ** 2) / 4e6)) });
    expect(startPointOf(2438, 938, { ...vat, volumeOffset: 25 }).volume).toBe(Math.round(1440 * ((Math.PI * 2875 ** 2) / 4e6) + 25));
  });

  it('keeps a start below the wedge as computed (negative), unlike the ingest', () => {
    expect(startPointOf(2438, 2400, vat).volume).toBeLessThan(0);
  });

  it('gives an end level below the wedge level 0 and volume 0, and a negative end volume 0', () => {
    expect(endPointOf(2438, 2400, vat)).toEqual({ level: 0, volume: 0 });
    expect(endPointOf(2438, 2370, { ...vat, volumeOffset: -1000 })).toEqual({ level: 68, volume: 0 });
  });

  it('derives the diameter that makes the collection equal the docket (both branches of the inverse)', () => {
    // End above the wedge: the offset cancels.
    const c = { ...vat, volumeOffset: 40 };
    const d = diameterFor(9000, 938, 2238, c) as number;
    expect(Math.abs(startPointOf(2438, 938, { ...c, diameter: d }).volume - endPointOf(2438, 2238, { ...c, diameter: d }).volume - 9000)).toBeLessThan(10);
    // End below the wedge: V = start volume.
    const d2 = diameterFor(9000, 938, 2438, c) as number;
    expect(Math.abs(startPointOf(2438, 938, { ...c, diameter: d2 }).volume - 9000)).toBeLessThan(10);
    expect(diameterFor(9000, 2438, 2438, c)).toBeUndefined();
  });

  it('finds a 4 % error: average diameter brings every difference under the red threshold', () => {
    // The vat's true diameter is 2875 but the config says 2932 (4 % more volume per mm).
    const truth = { ...vat };
    const rows = [900, 1000, 1100, 1200].map((startRadar) => {
      const litres = startPointOf(2438, startRadar, truth).volume;
      return row({ startRadar, fonterraVolume: litres, temperature: 4.2, fonterraTemperature: 4.1 });
    });
    const wrong = { ...vat, diameter: Math.round(2875 * Math.sqrt(1.04)) };
    expect(rows.every((r) => calibrateRow(r, wrong).volumeRed)).toBe(true);
    const fixed = { ...wrong, diameter: averageDiameter(rows, wrong) as number };
    expect(Math.abs(fixed.diameter - 2875)).toBeLessThanOrEqual(2);
    expect(rows.some((r) => calibrateRow(r, fixed).volumeRed)).toBe(false);
  });

  it('reds a volume difference at max(100, 1 %) and a temperature difference at 0.3', () => {
    expect(volumeThreshold(5000)).toBe(100);
    expect(volumeThreshold(20000)).toBe(200);
    const r = calibrateRow(row({ fonterraVolume: 0, temperature: 4.4, fonterraTemperature: 4.1 }), vat);
    expect(r.temperatureDifference).toBe(0.3);
    expect(r.temperatureRed).toBe(true);
    expect(calibrateRow(row({ temperature: 4.3, fonterraTemperature: 4.1 }), vat).temperatureRed).toBe(false);
  });

  it('max height is the highest end radar of non-omitted rows; radar after to height skips omitted rows', () => {
    const rows = [row({ endRadar: 2400 }), row({ endRadar: 2450 }), row({ endRadar: 2600, omit: true })];
    expect(maxHeightFromRadar(rows)).toBe(2450);
    expect(radarAfterToHeight(rows, 2500).map((r) => r.endRadar)).toEqual([2500, 2500, 2600]);
  });
});
