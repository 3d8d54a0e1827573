import * as z from 'zod';
import { idField } from '../fields';

/*
 * ADD_PICKUP on /api/farmer/activity (farmer §2.14, §3 Pickup, §5, §7): a pickup the farmer
 * enters by hand, for farms whose collections the dairy company does not report.
 * The client (frontend/src/features/storage) checks the same rules with this schema before it calls.
 */

/** The largest figures accepted: a vat holds at most tens of thousands of litres; milk is never near 100 °C. */
export const PICKUP_LIMITS = { vat: 99, volume: 100_000, temperature: 100 } as const;

/** §9: instants are sent as UTC 'YYYY-MM-DD HH:mm:ss'; ISO 8601 with a zone is accepted too. */
const WIRE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:\d{2})?$/;

/** The instant of a §9 wire time ('YYYY-MM-DD HH:mm:ss' is UTC), or NaN. */
const parseWireTime = (text: string): number => {
  const m = WIRE_TIME.exec(text.trim());
  if (!m) return Number.NaN;
  const [, day = '', time = '', zone = 'Z'] = m;
  // Only a real calendar day counts (no 30 February).
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return Number.NaN;
  return Date.parse(`${day}T${time}${zone}`);
};

/** An instant as the §9 wire form 'YYYY-MM-DD HH:mm:ss' (UTC). */
export const toWireTime = (instant: number): string => new Date(instant).toISOString().slice(0, 19).replace('T', ' ');

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** A form sends numbers as text: blank is "not given", anything else must read as a finite number. */
const toNumber = (v: unknown) => {
  const given = blankToUndefined(v);
  if (typeof given !== 'string') return given;
  const n = Number(given.trim());
  return Number.isFinite(n) ? n : given;
};

/** A figure of the form, `label` being its field name (farmer §2.14); §5: only values >= 0. */
const figure = (label: string, max: number) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (iss) => (iss.input === undefined ? `${label} is required` : `${label} must be a number`) })
      .min(0, `${label} must be 0 or more`)
      // The message is made when it is needed: Intl's number formatting costs a phone ~20 ms the
      // first time, and this module loads with the dashboard's first screen.
      .max(max, { error: () => `${label} must be at most ${max.toLocaleString('en-NZ')}` }),
  );

/** The vat and the pickup time, as ADD_PICKUP takes them and DELETE_PICKUP names a pickup by them. */
const vatField = figure('Vat', PICKUP_LIMITS.vat).refine(Number.isInteger, 'Vat must be a whole number');
const pickupTimeField = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'Pickup Time is required' })
    .max(40, 'Pickup Time must be a date and time as YYYY-MM-DD HH:mm:ss')
    .refine((s) => !Number.isNaN(parseWireTime(s)), 'Pickup Time must be a date and time as YYYY-MM-DD HH:mm:ss')
    .transform((s) => new Date(parseWireTime(s)).toISOString()),
);

export const addPickupSchema = z.object({
  type: z.literal('ADD_PICKUP'),
  farm_id: idField('farm_id'),
  vat: vatField,
  datetime: pickupTimeField,
  volume: figure('Volume', PICKUP_LIMITS.volume),
  // Optional (§2.14): left empty it is stored as null.
  temperature: z.preprocess(blankToUndefined, figure('Temperature', PICKUP_LIMITS.temperature).optional()),
});

/** Messages the server adds after the schema (farmer §6 hides Submit Pickup on dairy-company farms). */
export const PICKUP_MESSAGES = {
  dairyCompany: 'Submit Pickup is not offered for dairy-company farms.',
  future: 'Pickup Time cannot be in the future.',
  unknownVat: (vat: number) => `Vat ${vat} is not a vat of this farm.`,
} as const;

/** A pickup may be entered a little ahead of the server's clock (the farmer's clock may run fast). */
export const PICKUP_FUTURE_SLACK_MS = 5 * 60_000;

/** ADD_PICKUP answers the spec's 'success' string. */
export const addPickupResponseSchema = z.literal('success');

/** A stored pickup (farmer §3 Pickup (submitted)). */
export const pickupSchema = z.object({
  farm_id: z.string(),
  vat: z.number().int(),
  device_id: z.string(),
  /** UTC ISO 8601. */
  datetime: z.string(),
  volume: z.number(),
  temperature: z.number().nullable(),
  submitted_by: z.string(),
  submitted_at: z.string(),
});
export type Pickup = z.infer<typeof pickupSchema>;

/**
 * DELETE_PICKUP (not in the spec's table; farmer §2.6 /dts/collection lists the submitted pickups,
 * §5 "Delete ... need the confirmation"): the pickup of this vat and time, deleted only by the
 * person who entered it. Deleting one that is not there (already deleted) answers 'success' too.
 */
export const deletePickupSchema = z.object({
  type: z.literal('DELETE_PICKUP'),
  farm_id: idField('farm_id'),
  vat: vatField,
  datetime: pickupTimeField,
});
export const deletePickupResponseSchema = z.literal('success');

/** Who may delete a pickup: the person who entered it (farmer §2.6). */
export const PICKUP_DELETE_REFUSED = 'Only the person who entered a pickup can delete it.';

/** A submitted pickup as /dts/collection lists it: `mine` when the caller entered it (who else did is not told). */
export const pickupListItemSchema = pickupSchema.omit({ farm_id: true, submitted_by: true }).extend({ mine: z.boolean() });
