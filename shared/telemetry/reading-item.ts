import { READING_FIELDS, type Reading } from './reading';

/**
 * The stored shape of one reading (Readings table, `R#<deviceId>#<UTC day>` / `published_at`):
 * the one codec every write and read of a reading item goes through.
 *
 * Version 2 (compact): the reading's values other than `published_at` (which is the sort key) in
 * one string attribute `v`, a JSON array in VALUE_FIELDS order, beside `raw` and `expires_at`:
 * 5 attributes where version 1 had 26 (each field its own attribute, nulls included, plus
 * `published_at` and `device_id`). Marshalling, signing and dynalite's validation of those
 * attributes was a large part of the ingest's cost per message. Version 1 items (written before)
 * read as before, so nothing is migrated; code older than this cannot read version 2 (roll
 * forward only).
 */

/** The stored order of `v`: READING_FIELDS' (append only) without `published_at`. An item written with fewer fields reads the missing ones as null. */
export const VALUE_FIELDS = READING_FIELDS.filter((f): f is Exclude<(typeof READING_FIELDS)[number], 'published_at'> => f !== 'published_at');

const VALUE_INDEX = new Map<string, number>(VALUE_FIELDS.map((f, i) => [f, i]));

/** The attributes a read needs to decode a reading of either version (a ProjectionExpression's names). */
export const READING_ITEM_ATTRIBUTES: readonly string[] = ['sk', 'v', ...READING_FIELDS];

/** A reading's attributes as stored (beside its key, `raw` and `expires_at`). */
export const readingValues = (reading: Reading): { v: string } => {
  const values = new Array<unknown>(VALUE_FIELDS.length);
  for (let i = 0; i < VALUE_FIELDS.length; i += 1) values[i] = reading[VALUE_FIELDS[i] as (typeof VALUE_FIELDS)[number]];
  return { v: JSON.stringify(values) };
};

/**
 * A stored reading item (version 2 or 1) as a Reading, its fields in READING_FIELDS order (so
 * that `sameReading` compares readings of either version alike).
 */
export const readingFromItem = (item: Record<string, unknown>): Reading => {
  const out: Record<string, unknown> = {};
  if (typeof item.v === 'string') {
    const values = JSON.parse(item.v) as unknown[];
    for (const f of READING_FIELDS) out[f] = f === 'published_at' ? String(item.sk) : (values[VALUE_INDEX.get(f) as number] ?? null);
  } else {
    for (const f of READING_FIELDS) out[f] = item[f] ?? null;
  }
  return out as unknown as Reading;
};
