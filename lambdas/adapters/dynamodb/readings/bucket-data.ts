import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeDay, encodeDay, type DayColumns, type StoredDay } from '../../../../shared/telemetry/day-bucket';
import type { Reading } from '../../../../shared/telemetry/reading';

/** A day or partial bucket's `data`: the day's readings as deflated JSON (shared/telemetry/day-bucket.ts), small enough for one item. */
export const encodeBucket = (readings: readonly Reading[]): Uint8Array => deflateRawSync(Buffer.from(JSON.stringify(encodeDay(readings)), 'utf8'));

/** A bucket item's `data` (deflated JSON, version 1 or 2) as columns. */
export const readBucket = (data: unknown): DayColumns => decodeDay(JSON.parse(inflateRawSync(data as Uint8Array).toString('utf8')) as StoredDay);
