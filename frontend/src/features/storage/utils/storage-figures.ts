import type { VatStorageHistory } from '../../../lib/queries/storage-history';

interface StorageFigures {
  readonly _id: string;
  readonly start: string;
  /** null while the milk is still in the vat. */
  readonly end: string | null;
  /** The most milk held during the storage (L), or null without readings. */
  readonly peakVolume: number | null;
  /** The warmest the vat got during the storage (°C), or null without readings. */
  readonly peakTemperature: number | null;
}

/**
 * The figures of each storage of a vat's history, newest first: the peaks are taken from the
 * history's readings, which the server thins min-max, so a peak survives the thinning.
 */
export const storageFigures = (history: VatStorageHistory): StorageFigures[] => {
  const rangeEnd = Date.parse(history.to);
  return history.storages
    .map((s) => {
      const from = Date.parse(s.activity.start.published_at);
      const to = s.activity.end ? Date.parse(s.activity.end.published_at) : rangeEnd;
      let peakVolume: number | null = null;
      let peakTemperature: number | null = null;
      for (const p of history.detailData) {
        const t = Date.parse(p.published_at);
        if (t < from || t > to) continue;
        if (typeof p.milk_volume === 'number' && (peakVolume === null || p.milk_volume > peakVolume)) peakVolume = p.milk_volume;
        if (typeof p.temp1 === 'number' && (peakTemperature === null || p.temp1 > peakTemperature)) peakTemperature = p.temp1;
      }
      return { _id: s._id, start: s.activity.start.published_at, end: s.activity.end?.published_at ?? null, peakVolume, peakTemperature };
    })
    .sort((a, b) => b.start.localeCompare(a.start));
};
