import type { Activity } from '../telemetry/activities';
import { gatewayDateTime, temperatureOf, type CollectionEvent, type MilkingEvent, type VatException, type VatExceptionType } from './payloads';

/**
 * The §3 payloads from what the platform detected (pure). Each vat's milkings and collections are
 * detected on their own, so each is sent as its own event carrying that vat alone: joining a
 * farm's vats would mean holding one vat's event until every other vat's detector has caught up,
 * and a vat that is offline would then hold back the others' events.
 */

export const milkingEventOf = (vat: number, a: Activity): MilkingEvent => {
  const volume = Math.max(0, Math.round(a.end?.milk_volume ?? a.start.milk_volume ?? 0));
  return { TotalVolume: volume, MilkingDateTime: gatewayDateTime(a.start.published_at), VatMilkingDetails: [{ VatID: vat, VatVolume: volume }] };
};

export const collectionEventOf = (vat: number, a: Activity, duringMilking: boolean): CollectionEvent => {
  const before = Math.max(0, Math.round(a.start.milk_volume ?? 0));
  const after = Math.max(0, Math.round(a.end?.milk_volume ?? 0));
  const temperature = temperatureOf(a.start.temp1 ?? a.end?.temp1 ?? 0);
  return {
    CollectionDateTime: gatewayDateTime(a.start.published_at),
    AverageTemperatureAtCollection: temperature,
    TotalVolumeBeforeCollection: before,
    TotalVolumeAfterCollection: after,
    CollectionOccurredDuringMilking: duringMilking,
    VatCollectionDetails: [{ VatID: vat, VatVolumeBeforeCollection: before, VatVolumeAfterCollection: after, VatTemperature: temperature }],
  };
};

/** Notification types that are vat exceptions for the company (farmer §9: 1001-1004 quality, 1201 late milking). */
export const EXCEPTION_TYPES: Readonly<Record<number, VatExceptionType>> = {
  1001: 'ApcLow',
  1002: 'ApcModerate',
  1003: 'ApcHigh',
  1004: 'ApcMilkAcceptanceRiskExceeded',
  1201: 'LateMilking',
};

/** A duration as the company's Description texts write it: hh:mm:ss. */
export const durationText = (minutes: number): string => {
  const s = Math.max(0, Math.round(minutes * 60));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
};

/** Minutes a late milking ended after the session's usual end (1201's lateMilking). */
export const minutesLate = (late: { end_time_current: string; end_time_schedule: string }): number =>
  Math.round((Date.parse(late.end_time_current) - Date.parse(late.end_time_schedule)) / 60_000);

export const vatExceptionOf = (
  vat: number,
  n: { type: number; data: { published_at: string }; quality?: { value?: number }; lateMilking?: { end_time_current: string; end_time_schedule: string } },
): VatException | undefined => {
  const type = EXCEPTION_TYPES[n.type];
  if (!type) return undefined;
  const description: VatException['Description'] =
    type === 'LateMilking'
      ? n.lateMilking
        ? { Limit: durationText(minutesLate(n.lateMilking)) }
        : {}
      : n.quality?.value !== undefined
        ? { APC: n.quality.value }
        : {};
  return { VatID: vat, Type: type, DateTime: gatewayDateTime(n.data.published_at), Description: description };
};
