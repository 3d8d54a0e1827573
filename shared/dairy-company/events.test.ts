import { describe, expect, it } from 'vitest';
import { collectionEventOf, durationText, milkingEventOf, vatExceptionOf } from './events';
import { collectionEventSchema, gatewayJson, milkingEventSchema, vatExceptionSchema, withTemperatureDecimals } from './payloads';

const point = (at: string, milk_volume: number | null, temp1: number | null = 4) => ({ published_at: at, milk_volume, temp1, temp2: null, temp3: null });

describe('dairy-company payloads from what the platform detected', () => {
  it('a milking: its start as MilkingDateTime, the vat alone with its volume after milking', () => {
    const e = milkingEventOf(2, { kind: 'milking', start: point('2026-11-20T05:30:12.000Z', 0), end: point('2026-11-20T06:40:00.000Z', 6204.6) });
    expect(milkingEventSchema.parse(e)).toEqual({ TotalVolume: 6205, MilkingDateTime: '2026-11-20T05:30:12Z', VatMilkingDetails: [{ VatID: 2, VatVolume: 6205 }] });
  });

  it('a collection: temperatures as one-decimal tokens, even a whole degree', () => {
    const e = collectionEventOf(1, { kind: 'collection', start: point('2026-11-20T14:10:00.000Z', 20800.4, 4), end: point('2026-11-20T14:40:00.000Z', 12) }, false);
    expect(collectionEventSchema.parse(e).AverageTemperatureAtCollection).toBe('4.0');
    expect(gatewayJson(e)).toContain('"AverageTemperatureAtCollection":4.0,');
    expect(gatewayJson(e)).toContain('"VatTemperature":4.0}');
    expect(e).toMatchObject({ TotalVolumeBeforeCollection: 20800, TotalVolumeAfterCollection: 12, CollectionOccurredDuringMilking: false });
    // Read back for the farmer's log, the whole degree keeps its decimal.
    const shown = withTemperatureDecimals(JSON.stringify(JSON.parse(gatewayJson(e)), null, 2));
    expect(shown).toContain('"AverageTemperatureAtCollection": 4.0,');
    expect(shown).toContain('"VatTemperature": 4.0\n');
    expect(shown).toContain('"TotalVolumeAfterCollection": 12,');
  });

  it('exceptions: APC bands carry the quality value, a late milking the minutes late as hh:mm:ss; other types are none', () => {
    const data = { published_at: '2026-11-20T09:00:00.000Z' };
    expect(vatExceptionSchema.parse(vatExceptionOf(1, { type: 1004, data, quality: { value: 6.2 } }))).toEqual({
      VatID: 1,
      Type: 'ApcMilkAcceptanceRiskExceeded',
      DateTime: '2026-11-20T09:00:00Z',
      Description: { APC: 6.2 },
    });
    const late = vatExceptionOf(2, { type: 1201, data, lateMilking: { end_time_current: '2026-11-20T17:40:00.000Z', end_time_schedule: '2026-11-20T16:15:00.000Z' } });
    expect(late).toMatchObject({ Type: 'LateMilking', Description: { Limit: '01:25:00' } });
    expect(vatExceptionOf(1, { type: 102, data })).toBeUndefined();
    expect(durationText(0.5)).toBe('00:00:30');
  });
});
