import type { ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import type { Device } from '../../shared/entities/device';
import { hourPoints, milkingEnds, type HourPoint, type MilkingEnd, type WatchSample } from '../../shared/watchman/rules';

/** What the checks need of one vat over the fault-check window. */
export interface VatWindow {
  readonly points: readonly HourPoint[];
  readonly ends: readonly MilkingEnd[];
}
export type VatWindowReader = (device: Device, from: string, to: string) => Promise<VatWindow>;

/** A raw message as a sample; a payload that is not JSON is left out (the ingest stored it as received). */
const sampleOf = (published_at: string, raw: string): WatchSample | undefined => {
  try {
    const m = JSON.parse(raw) as Omit<WatchSample, 'published_at'>;
    return { ...m, published_at };
  } catch {
    return undefined;
  }
};

/**
 * A vat's window from its stored messages (the raw payloads: the readings keep no signal). One
 * query per UTC day of the window, in parallel.
 */
export const rawVatWindow =
  (readings: Pick<ReadingsRepository, 'listRawBetween'>): VatWindowReader =>
  async (device, from, to) => {
    const samples = (await readings.listRawBetween(device._id, from, to)).flatMap((r) => sampleOf(r.published_at, r.raw) ?? []);
    return { points: hourPoints(samples), ends: milkingEnds(samples) };
  };
