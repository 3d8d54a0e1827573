import type { ReadingsRepository } from '../ports/readings';
import type { HourDigest, WatchmanDigestRepository } from '../ports/watchman';
import type { Device } from '../../shared/entities/device';
import { hourPoints, milkingEnds, type HourPoint, type MilkingEnd, type WatchSample } from '../../shared/watchman/rules';

/** What the checks need of one vat over the fault-check window. */
export interface VatWindow {
  readonly points: readonly HourPoint[];
  readonly ends: readonly MilkingEnd[];
}
export type VatWindowReader = (device: Device, from: string, to: string) => Promise<VatWindow>;

const HOUR = 3_600_000;
/**
 * An hour is settled (digested for good) once it ended this long ago: a message published late
 * by less still counts. One published later than that is not in the digest.
 */
export const SETTLED_AFTER_MS = 2 * HOUR;

/** A raw message as a sample; a payload that is not JSON is left out (the ingest stored it as received). */
const sampleOf = (published_at: string, raw: string): WatchSample | undefined => {
  try {
    const m = JSON.parse(raw) as Omit<WatchSample, 'published_at'>;
    return { ...m, published_at };
  } catch {
    return undefined;
  }
};
const hourOf = (iso: string) => Math.floor(Date.parse(iso) / HOUR) * HOUR;
const iso = (t: number) => new Date(t).toISOString();

/**
 * A vat's window: the settled hours from their digests (Readings `W#<device>`), the rest from the
 * stored messages (the raw payloads: readings keep no signal), whose settled hours are then
 * digested for the next run. So an hourly run reads about two hours of messages per vat, not
 * fault_check_days of them (3 days are 4,320 messages a vat, 170 million for 40,000 vats).
 */
export const cachedVatWindow =
  (readings: Pick<ReadingsRepository, 'listRawBetween'>, digests: WatchmanDigestRepository): VatWindowReader =>
  async (device, from, to) => {
    const first = hourOf(from);
    const settled = Math.floor((Date.parse(to) - SETTLED_AFTER_MS) / HOUR) * HOUR; // hours before this are settled
    const cached = new Map((settled > first ? await digests.list(device._id, iso(first), iso(settled - HOUR)) : []).map((d) => [Date.parse(d.hour), d]));
    let rawFrom = first;
    while (rawFrom < settled && cached.has(rawFrom)) rawFrom += HOUR;
    const samples = (await readings.listRawBetween(device._id, iso(rawFrom), to)).flatMap((r) => sampleOf(r.published_at, r.raw) ?? []);
    const points = hourPoints(samples);
    const ends = milkingEnds(samples);
    const fresh: HourDigest[] = [];
    for (let h = rawFrom; h < settled; h += HOUR) {
      fresh.push({
        hour: iso(h),
        point: points.find((p) => Date.parse(p.hour) === h) ?? null,
        ends: ends.filter((e) => hourOf(e.at) === h),
      });
    }
    if (fresh.length) await digests.put(device._id, fresh);
    const older = [...cached.values()].filter((d) => Date.parse(d.hour) < rawFrom);
    return {
      points: [...older.flatMap((d) => (d.point ? [d.point] : [])), ...points.filter((p) => Date.parse(p.hour) >= rawFrom)],
      ends: [...older.flatMap((d) => d.ends), ...ends.filter((e) => Date.parse(e.at) >= rawFrom && e.at >= from)].filter((e) => e.at >= from),
    };
  };
