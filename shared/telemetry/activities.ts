import type { Reading } from './reading';

/**
 * Activities derived from a vat's reading stream (issue "Telemetry", item 4): milkings,
 * collections, CIP washes, agitator stops, outages (gaps over 15 minutes), battery-off periods,
 * and storage periods (milk held from the first milking after the vat was empty until it is
 * collected). The detectors in ./detectors are pure and incremental: each reading steps a small
 * serialisable state, so the ingest never re-reads history to process a message.
 */
export const ACTIVITY_KINDS = ['milking', 'collection', 'cip', 'agitator_stop', 'outage', 'battery_off', 'storage'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The figures an activity records at its start and end (farmer §3 Milking activity). */
export interface ActivityPoint {
  readonly published_at: string;
  readonly milk_volume: number | null;
  readonly temp1: number | null;
  readonly temp2: number | null;
  readonly temp3: number | null;
}

export interface Activity {
  readonly kind: ActivityKind;
  readonly start: ActivityPoint;
  /** null while the activity is still going on. */
  readonly end: ActivityPoint | null;
}

/** Stable within a device: the same stream always yields the same ids (idempotent writes). */
export const activityId = (deviceId: string, a: Pick<Activity, 'kind' | 'start'>): string => `${deviceId}~${a.kind}~${a.start.published_at}`;

export const pointOf = (r: Reading): ActivityPoint => ({
  published_at: r.published_at,
  milk_volume: r.milk_volume,
  temp1: r.temp1,
  temp2: r.temp2,
  temp3: r.temp3,
});
