import * as z from 'zod';
import { supplierSchema } from '../../entities/farm';
import { isCalendarDay } from '../../time/local-day';
import { access, contract } from '../contract';
import { ID_MAX, intField } from '../fields';
import { activitySchema, rangeSchema, vatSchema, vatSeriesSchema } from './farmer-activity';

/*
 * /api/milkquality (operator §2 milk quality and Westlands data, §3 milk data, §5, §6, §7).
 * The Milk Quality view reads the main dairy company's farms, the Westlands view the farms whose
 * supplier is Westlands; both by supply number, vat number and a range of the farm's local days.
 */

/** Which view asks: the supply number's short form and who may read the farm follow from it. */
export type MilkView = 'milkquality' | 'westlands';

/**
 * Operator §5: the supply number is upper-cased and trimmed; in the Milk Quality view a
 * 5-character number gets the FON prefix, in the Westlands view a 3-character one gets WES.
 * The form and the server apply the same rule.
 */
export const normaliseSupplyNumber = (raw: string, view: MilkView): string => {
  const n = raw.trim().toUpperCase();
  if (view === 'milkquality' && n.length === 5) return `FON${n}`;
  if (view === 'westlands' && n.length === 3) return `WES${n}`;
  return n;
};

const required = (name: string) => z.string({ error: `${name} is required` }).trim().min(1, `${name} is required`);
const dayField = (name: string) => required(name).pipe(z.string().refine(isCalendarDay, `${name} must be a date as YYYY-MM-DD`));
/** A form sends an empty field for "not given": that is 'required', not 'not a number'. */
const vatField = z
  .unknown()
  .refine((v) => v !== undefined && v !== null && v !== '', 'vatNumber is required')
  .pipe(intField('vatNumber').min(1, 'vatNumber must be 1 to 4').max(4, 'vatNumber must be 1 to 4'));

/** operator §7: supplyNumber, vatNumber, fromDate, toDate (YYYY-MM-DD); all four required (§5). */
const milkDataInput = <T extends string>(type: T, view: MilkView) =>
  z.object({
    type: z.literal(type),
    supplyNumber: required('supplyNumber')
      .max(ID_MAX, 'supplyNumber is not valid')
      .transform((s) => normaliseSupplyNumber(s, view)),
    vatNumber: vatField,
    fromDate: dayField('fromDate'),
    toDate: dayField('toDate'),
  });

const milkQualityInputs = {
  MILK_QUALITY_DATA: milkDataInput('MILK_QUALITY_DATA', 'milkquality'),
  WESTLANDS_FARMS: z.object({ type: z.literal('WESTLANDS_FARMS') }),
  WESTLANDS_DATA: milkDataInput('WESTLANDS_DATA', 'westlands'),
  /** Not in the spec's table: the lookups log, for Admins. */
  MILK_DATA_LOOKUPS: z.object({ type: z.literal('MILK_DATA_LOOKUPS') }),
} as const;

/**
 * The milk data of one vat over a range (operator §3 response groups). The same columnar range
 * read, thinning and shading series as the dashboard range (FARMER_DASHBOARD_LAST_ALL); each point
 * also carries the state machine (the CSV's phystate) and the quality estimates (currentEstCFU,
 * pickupEstCFU) where the device sent them. lastStorage … lastCIP are the newest of each kind that
 * began in the range. The spec does not show the Westlands answer's shape: it is this one.
 */
export const milkDataSchema = z.object({
  farm: z.object({ _id: z.string(), fonterra_id: z.string(), name: z.string().optional(), supplier: supplierSchema.optional(), timezone: z.string() }),
  device: vatSchema,
  range: rangeSchema,
  ...vatSeriesSchema.shape,
  lastStorage: activitySchema.nullable(),
  lastCollection: activitySchema.nullable(),
  lastMilking: activitySchema.nullable(),
  lastCIP: activitySchema.nullable(),
});
export type MilkData = z.infer<typeof milkDataSchema>;

/** One lookup as kept and shown to Admins. */
export const milkLookupSchema = z.object({
  at: z.string(),
  user_id: z.string(),
  /** The caller's sign-in name (Cognito username) and, where the profile has one, email. */
  username: z.string(),
  email: z.string().optional(),
  view: z.enum(['milkquality', 'westlands']),
  farm_id: z.string(),
  fonterra_id: z.string(),
  vat_number: z.number().int(),
  fromDate: z.string(),
  toDate: z.string(),
});
export type MilkLookup = z.infer<typeof milkLookupSchema>;

/** How many lookups MILK_DATA_LOOKUPS answers (the newest). */
export const LOOKUPS_SHOWN = 500;

/**
 * Operator §6: Milk Quality staff (and Admin) read the dairy company's farms; Westlands staff (and
 * Admin) the Westlands farms. The farm rule (whose supplier) is the action's, after the group rule.
 */
export const milkQualityContracts = {
  MILK_QUALITY_DATA: contract({
    path: '/api/milkquality',
    type: 'MILK_QUALITY_DATA',
    input: milkQualityInputs.MILK_QUALITY_DATA,
    answer: milkDataSchema,
    access: access.operator('MilkQuality'),
  }),
  WESTLANDS_FARMS: contract({
    path: '/api/milkquality',
    type: 'WESTLANDS_FARMS',
    input: milkQualityInputs.WESTLANDS_FARMS,
    answer: z.array(z.object({ _id: z.string(), fonterra_id: z.string() })),
    access: access.operator('Westlands'),
  }),
  WESTLANDS_DATA: contract({
    path: '/api/milkquality',
    type: 'WESTLANDS_DATA',
    input: milkQualityInputs.WESTLANDS_DATA,
    answer: milkDataSchema,
    access: access.operator('Westlands'),
  }),
  MILK_DATA_LOOKUPS: contract({
    path: '/api/milkquality',
    type: 'MILK_DATA_LOOKUPS',
    input: milkQualityInputs.MILK_DATA_LOOKUPS,
    answer: z.array(milkLookupSchema),
    access: access.admin(),
  }),
} as const;
