import * as z from 'zod';
import { lastUpdatedSchema } from '../../entities/device';
import { packageSchema } from '../../entities/farm';
import { COOLING_RULES } from '../../compliance/cooling-rules';
import { ACTIVITY_KINDS, type ActivityKind } from '../../telemetry/activities';
import { controllerStatusSchema, deviceQualitySchema } from '../../telemetry/device-message';
import { isCalendarDay } from '../../time/local-day';
import { access, contract } from '../contract';
import * as startUp from './start-up';
import { chartPointsField, farmField, ID_MAX, instantField, intField, jsonField } from '../fields';
import { addPickupResponseSchema, addPickupSchema, deletePickupResponseSchema, deletePickupSchema, pickupListItemSchema } from './farmer-pickup';
import { MAX_PAGE_INDEX } from '../range';
import { rangeColumnsSchema, rangeFormField } from './range-columns';

/*
 * /api/farmer/activity (farmer spec §7 "farmer activity", operator spec §7 "dashboard range").
 * Request schemas first (one per type), then the answers the frontend parses.
 * Instants on the wire are UTC ISO 8601 (…Z); ranges are farm-local days as YYYY-MM-DD.
 */

/** A form sends an empty field for "not given". */
const optionalText = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

export const dayField = (name: string) =>
  optionalText(z.string({ error: `${name} must be a date as YYYY-MM-DD` }).refine(isCalendarDay, `${name} must be a date as YYYY-MM-DD`));

const rangeFields = {
  page_index: optionalText(intField('page_index').max(MAX_PAGE_INDEX, `page_index may be at most ${MAX_PAGE_INDEX}.`)),
  startDate: dayField('startDate'),
  endDate: dayField('endDate'),
};

/** An activity as `${deviceId}~${kind}~${start}` (shared/telemetry/activities.ts activityId). */
export const parseActivityId = (id: string): { deviceId: string; kind: ActivityKind; start: string } | undefined => {
  const parts = id.split('~');
  if (parts.length !== 3) return undefined;
  const [deviceId, kind, start] = parts as [string, string, string];
  if (!deviceId || !(ACTIVITY_KINDS as readonly string[]).includes(kind) || Number.isNaN(Date.parse(start))) return undefined;
  return { deviceId, kind: kind as ActivityKind, start };
};

const activityIdField = z
  .string({ error: 'activity_id is required' })
  .trim()
  .min(1, 'activity_id is required')
  .max(ID_MAX * 2, 'activity_id is not valid')
  .refine((s) => parseActivityId(s) !== undefined, 'activity_id is not valid');

/** The herd note a farmer keeps on a milking (FARMER_MILKING_ONE_HEAD). */
const herdSchema = z.strictObject(
  {
    cows: z.number({ error: 'herd.cows must be a number' }).int('herd.cows must be a whole number').min(0, 'herd.cows must be 0 or more').max(5000, 'herd.cows must be at most 5000').optional(),
    note: z.string({ error: 'herd.note must be text' }).trim().max(500, 'herd.note must be at most 500 characters').optional(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? 'herd has only cows and note' : 'herd must be an object') },
);
export type Herd = z.infer<typeof herdSchema>;

const farmOnly = <T extends string>(type: T) => z.object({ type: z.literal(type), farm: farmField });
const farmRange = <T extends string>(type: T) => z.object({ type: z.literal(type), farm: farmField, ...rangeFields });
const byActivity = <T extends string>(type: T) => z.object({ type: z.literal(type), activity_id: activityIdField });

const farmerActivityInputs = {
  FARMER_DASHBOARD_LAST: farmOnly('FARMER_DASHBOARD_LAST'),
  /**
   * `since`: the newest reading time the client already has; the answer then holds only what is newer
   * (lastAllItemSchema.since), which the client merges (shared/telemetry/range-merge.ts). `points`: the chart's width
   * in pixels; the answer then holds at most two readings a pixel (else 1,500 a vat). `form=columns`: lastAllColumnsItemSchema.
   */
  FARMER_DASHBOARD_LAST_ALL: farmRange('FARMER_DASHBOARD_LAST_ALL').extend({ since: optionalText(instantField('since')), points: chartPointsField, form: rangeFormField }),
  FARMER_STORAGE_HISTORY: farmOnly('FARMER_STORAGE_HISTORY'),
  FARMER_MILKING_LIST: farmRange('FARMER_MILKING_LIST'),
  FARMER_MILKING_ONE: byActivity('FARMER_MILKING_ONE'),
  FARMER_MILKING_LIST_BRIEF: byActivity('FARMER_MILKING_LIST_BRIEF'),
  FARMER_MILKING_ONE_HEAD: z.object({
    type: z.literal('FARMER_MILKING_ONE_HEAD'),
    activity_id: activityIdField,
    herd: jsonField(herdSchema, 'herd'),
  }),
  FARMER_STORAGE_ONE: z.object({
    type: z.literal('FARMER_STORAGE_ONE'),
    activity_id: activityIdField,
    alert_id: optionalText(z.string({ error: 'alert_id is not valid' }).trim().max(ID_MAX * 2, 'alert_id is not valid')),
  }),
  /** Not in the spec's table: the data of /dts/collection (farmer §2.6). */
  FARMER_COLLECTION_LIST: farmRange('FARMER_COLLECTION_LIST'),
  /** Not in the spec's table: the data of /dts/agitator (farmer §2.3, §4 agitator stop periods). */
  FARMER_AGITATOR_LIST: farmRange('FARMER_AGITATOR_LIST'),
  /** Not in the spec's table: the pickups entered on /dts/pickup, listed on /dts/collection. */
  FARMER_PICKUP_LIST: farmRange('FARMER_PICKUP_LIST'),
} as const;

// ---- Answers -------------------------------------------------------------------------------

const num = z.number().nullable().optional();

/** A vat as the farmer's screens show it (farmer §3 Vat). */
export const vatSchema = z.object({
  _id: z.string(),
  name: z.string(),
  vat_number: z.number().int(),
  vat_size: z.number(),
  vat_auto: z.boolean(),
  last_updated: lastUpdatedSchema.nullable(),
});

/** farmer §3 Milking activity start/end. */
const activityPointSchema = z.object({
  published_at: z.string(),
  milk_volume: z.number().nullable(),
  temp1: z.number().nullable(),
  temp2: z.number().nullable(),
  temp3: z.number().nullable(),
});

/** The reading that raised an alert (farmer §3 Notification.data; shared/alerts/types.ts `AlertData`). */
export const alertDataSchema = z.object({
  published_at: z.string(),
  temp1: z.number().nullable(),
  milk_volume: z.number().nullable(),
  agitator_status: z.union([z.literal(0), z.literal(1)]).nullable(),
});

/** An activity as stored (lambdas/ports/readings.ts `StoredActivity`): its kind, start and end, device and farm. */
export const storedActivitySchema = z.object({
  kind: z.enum(ACTIVITY_KINDS),
  start: activityPointSchema,
  end: activityPointSchema.nullable(),
  device_id: z.string(),
  farm_id: z.string(),
});

export const activitySchema = z.object({
  /** activityId(): deviceId~kind~start */
  _id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  device_id: z.string(),
  activity: z.object({ start: activityPointSchema, end: activityPointSchema.nullable() }),
});

/**
 * A chart point (operator §3 Reading): the stored reading's values; a field the device did not
 * report is left out rather than sent as null (a 30-day answer is large enough).
 */
export const detailPointSchema = z.object({
  published_at: z.string(),
  message_type: z.string().optional(),
  milk_level: num,
  milk_volume: num,
  temp1: num,
  temp2: num,
  temp3: num,
  temp4: num,
  temp5: num,
  temp6: num,
  shaft_rpm: num,
  agitator_status: num,
  state_machine: z.string().nullable().optional(),
  quality: deviceQualitySchema.nullable().optional(),
});
export type DetailPoint = z.infer<typeof detailPointSchema>;

/** operator §3 Cooler reading. */
const coolerPointSchema = z.object({ published_at: z.string(), milk_in: z.number().nullable(), water_in: z.number().nullable() });
/** operator §3 Battery record: raw.status hex, odd = on mains/charging, even = off. */
const batteryRecordSchema = z.object({ published_at: z.string(), raw: z.object({ status: z.string() }) });
const phyStateSchema = z.object({ start: z.string(), end: z.string(), phystate: z.string() });
const periodSchema = z.object({ start: z.object({ published_at: z.string() }), end: z.object({ published_at: z.string() }).nullable() });

/**
 * A vat's chart series over a range, as every range answer holds it (built once, by
 * shared/telemetry/vat-series.ts `vatSeries`): the readings at the chart's resolution and the
 * shadings drawn over them, thinned to the same pixel.
 */
export const vatSeriesSchema = z.object({
  /** Readings in the range before thinning. */
  points: z.number().int(),
  detailData: z.array(detailPointSchema),
  coolerData: z.array(coolerPointSchema),
  /** State runs (a run ends where the next begins), for the milking start and end markers (farmer §4). */
  phyStateData: z.array(phyStateSchema),
  /** The first record and every change between on and off: shade from an off to the next on. */
  batteryData: z.array(batteryRecordSchema),
  /** operator §3 Agitator data. */
  agitatorData: z.object({ listStop: z.array(periodSchema) }),
  /** Gaps between readings over 15 minutes (farmer §2.17). */
  outageData: z.array(periodSchema),
});

export const rangeSchema = z.object({
  from: z.string(),
  to: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  page_index: z.number().int().nullable(),
});

/** The cooling compliance clock of the vat's last milking (shared/compliance/cooling-forecast.ts). */
const coolingForecastSchema = z.object({
  milking_start: z.string(),
  milking_end: z.string(),
  targets: z.array(
    z.object({
      rule: z.enum(['R1', 'R2']),
      limit: z.number(),
      deadline: z.string(),
      reached_at: z.string().nullable(),
      predicted_at: z.string().nullable(),
      at_risk: z.boolean(),
    }),
  ),
  fit: z
    .object({ asymptote: z.number().nullable(), tau_minutes: z.number().nullable(), rate_per_hour: z.number(), rmse: z.number(), readings: z.number().int() })
    .nullable(),
});

export const lastResponseSchema = z.array(
  z.object({
    device: vatSchema,
    /** The newest reading of the last two days (quality included), else the device's last_updated. */
    last: detailPointSchema.nullable(),
    lastStorage: activitySchema.nullable(),
    lastCollection: activitySchema.nullable(),
    lastMilking: activitySchema.nullable(),
    lastCIP: activitySchema.nullable(),
    /**
     * A Vat-Man Auto vat's controller selector (farmer §2.5 Auto tile): the latest reported status
     * and when it last changed within the last 2 days (null: not within them); null when no reading
     * of those days reports one. Absent for farms that are not Vat-Man Auto.
     */
    controller: z.object({ status: controllerStatusSchema, since: z.string().nullable() }).nullable().optional(),
    /**
     * While the milk of the last milking cools (it has ended, the vat is not collected, a §9
     * deadline is still ahead): the deadlines and predicted times. Null otherwise.
     */
    cooling: coolingForecastSchema.nullable().optional(),
    /**
     * The capacity forecast (shared/alerts/capacity-forecast.ts) from the vat's milking and
     * pickup history: when it reaches 80 % and full, the expected pickup and its usual time of day
     * (farm-local 'HH:mm'); null until the alert engine has seen the vat.
     */
    capacity: z
      .object({
        at80: z.string().nullable(),
        atFull: z.string().nullable(),
        over80: z.boolean(),
        nextPickup: z.string().nullable(),
        usualPickupTime: z.string().nullable(),
        fullBeforePickup: z.boolean(),
      })
      .nullable()
      .optional(),
  }),
);

export const lastAllItemSchema = z.object({
  device: vatSchema,
  package: packageSchema,
  range: rangeSchema,
  ...vatSeriesSchema.shape,
  /**
   * Set when the request gave `since`: detailData and coolerData hold only the readings after it,
   * `points` counts only those, and the state runs, battery records, stops and outages are those of
   * the readings from `since` on (the reading at `since` included, so a run, stop or gap that goes
   * on across it joins up). Absent for a whole range.
   */
  since: z.string().optional(),
});
export const lastAllResponseSchema = z.array(lastAllItemSchema);
/** FARMER_DASHBOARD_LAST_ALL with `form=columns` (decision 111): the readings as columns in place of detailData and coolerData. */
export const lastAllColumnsItemSchema = lastAllItemSchema.omit({ detailData: true, coolerData: true }).extend({ columns: rangeColumnsSchema });
export const lastAllColumnsResponseSchema = z.array(lastAllColumnsItemSchema);

export const storageHistoryResponseSchema = z.array(
  z.object({
    device: vatSchema,
    from: z.string(),
    to: z.string(),
    storages: z.array(activitySchema),
    /** Milk Volume and the temperatures of §9 (temp1 Vat, temp2 Inlet, temp3 Plate, temp4 Ambient, temp5 CIP). */
    detailData: z.array(z.object({ published_at: z.string(), milk_level: num, milk_volume: num, temp1: num, temp2: num, temp3: num, temp4: num, temp5: num })),
    /** Milk In and Water In of the readings shown. */
    coolerData: z.array(coolerPointSchema),
    /** State runs of the 7 days, for the milking start and end markers (farmer §4). */
    phyStateData: z.array(phyStateSchema),
  }),
);

const milkingSummarySchema = z.object({
  duration_min: z.number().nullable(),
  /** Litres added: end volume minus start volume (the start already 0 under 5% of the vat, farmer §4). */
  productivity_l: z.number().nullable(),
  speed_l_min: z.number().nullable(),
});

const milkingItemSchema = activitySchema.extend({ config: z.object({ vat_size: z.number(), vat_number: z.number().int() }), summary: milkingSummarySchema });
export const milkingListResponseSchema = z.object({ range: rangeSchema, list: z.array(milkingItemSchema) });

const cardSchema = z.object({ published_at: z.string(), plate: z.number().nullable(), inlet: z.number().nullable(), vat: z.number().nullable(), volume: z.number().nullable() });

export const ruleResultSchema = z.object({
  rule: z.enum(COOLING_RULES),
  text: z.string(),
  status: z.enum(['passed', 'failed', 'pending', 'no_data', 'not_applicable']),
  passed: z.boolean().nullable(),
  met_at: z.string().nullable(),
  failed_at: z.string().nullable(),
  deadline: z.string().nullable(),
  detail: z.string(),
});

export const milkingOneResponseSchema = milkingItemSchema.extend({
  device: vatSchema,
  herd: herdSchema.nullable(),
  startCard: cardSchema,
  stopCard: cardSchema.nullable(),
  /** Chart markers (farmer §2.6): start, end, 4 h and 6 h after the start. */
  markers: z.object({ start: z.string(), end: z.string().nullable(), h4: z.string(), h6: z.string() }),
  detailData: z.array(detailPointSchema),
  compliance: z.array(ruleResultSchema),
});

export const milkingBriefResponseSchema = z.object({
  device: vatSchema,
  list: z.array(
    z.object({ _id: z.string(), start: z.string(), end: z.string().nullable(), volume: z.number().nullable(), productivity_l: z.number().nullable(), duration_min: z.number().nullable() }),
  ),
});

export const milkingHeadResponseSchema = z.object({ _id: z.string(), herd: herdSchema });

export const storageOneResponseSchema = z.object({
  activity: activitySchema,
  /** The storage's farm: the page switches the selected farm to it when another is selected (farmer §2.7). */
  farm_id: z.string(),
  device: vatSchema,
  /** The vat's series over the storage, as FARMER_DASHBOARD_LAST_ALL gives them (the cooler's Milk In and Water In are farmer §9's eight series). */
  ...vatSeriesSchema.pick({ detailData: true, coolerData: true, phyStateData: true, agitatorData: true }).shape,
  /** The farm's alert of alert_id (farmer §2.7 red box); null when none was asked for or it is not this farm's. */
  alert: z
    .object({
      _id: z.string(),
      type: z.number().int(),
      status: z.number().int(),
      data: alertDataSchema,
      created_at: z.string(),
      device: z.object({ _id: z.string(), name: z.string(), vat_number: z.number().int() }),
    })
    .nullable(),
});

export const collectionListResponseSchema = z.object({
  range: rangeSchema,
  list: z.array(
    activitySchema.extend({
      vat_number: z.number().int(),
      volume_collected: z.number().nullable(),
      duration_min: z.number().nullable(),
      /** Dockets against the vat: the tanker's figure (the company's docket, or the farmer's entered pickup) and the vat's drop minus it. */
      tanker: z.object({ volume: z.number(), source: z.enum(['docket', 'pickup']), at: z.string() }).nullable(),
      difference_l: z.number().nullable(),
      difference_percent: z.number().nullable(),
    }),
  ),
});

/** The farm's submitted pickups of the 30 days of page_index, newest first. */
const pickupListResponseSchema = z.object({ range: rangeSchema, list: z.array(pickupListItemSchema) });

export const agitatorListResponseSchema = z.object({
  range: rangeSchema,
  list: z.array(activitySchema.extend({ vat_number: z.number().int(), duration_min: z.number().nullable() })),
});

// ---- Contracts (shared/api/contract.ts) ----------------------------------------------------

const PATH = '/api/farmer/activity';
const farmMember = access.farmMember();

/** /api/farmer/activity: every type is the farm's or its activity's (farmer §6), Admin any. */
export const farmerActivityContracts = {
  FARMER_DASHBOARD_LAST: contract({ ...startUp.FARMER_DASHBOARD_LAST, input: farmerActivityInputs.FARMER_DASHBOARD_LAST, answer: lastResponseSchema, access: farmMember }),
  FARMER_DASHBOARD_LAST_ALL: contract({ path: PATH, type: 'FARMER_DASHBOARD_LAST_ALL', input: farmerActivityInputs.FARMER_DASHBOARD_LAST_ALL, answer: z.union([lastAllResponseSchema, lastAllColumnsResponseSchema]), access: farmMember }),
  FARMER_STORAGE_HISTORY: contract({ path: PATH, type: 'FARMER_STORAGE_HISTORY', input: farmerActivityInputs.FARMER_STORAGE_HISTORY, answer: storageHistoryResponseSchema, access: farmMember }),
  FARMER_MILKING_LIST: contract({ path: PATH, type: 'FARMER_MILKING_LIST', input: farmerActivityInputs.FARMER_MILKING_LIST, answer: milkingListResponseSchema, access: farmMember }),
  FARMER_MILKING_ONE: contract({ path: PATH, type: 'FARMER_MILKING_ONE', input: farmerActivityInputs.FARMER_MILKING_ONE, answer: milkingOneResponseSchema, access: access.activityMember('milking') }),
  FARMER_MILKING_LIST_BRIEF: contract({ path: PATH, type: 'FARMER_MILKING_LIST_BRIEF', input: farmerActivityInputs.FARMER_MILKING_LIST_BRIEF, answer: milkingBriefResponseSchema, access: access.activityMember('milking') }),
  FARMER_MILKING_ONE_HEAD: contract({ path: PATH, type: 'FARMER_MILKING_ONE_HEAD', input: farmerActivityInputs.FARMER_MILKING_ONE_HEAD, answer: milkingHeadResponseSchema, access: access.activityMember('milking') }),
  FARMER_STORAGE_ONE: contract({ path: PATH, type: 'FARMER_STORAGE_ONE', input: farmerActivityInputs.FARMER_STORAGE_ONE, answer: storageOneResponseSchema, access: access.activityMember('storage') }),
  FARMER_COLLECTION_LIST: contract({ path: PATH, type: 'FARMER_COLLECTION_LIST', input: farmerActivityInputs.FARMER_COLLECTION_LIST, answer: collectionListResponseSchema, access: farmMember }),
  FARMER_AGITATOR_LIST: contract({ path: PATH, type: 'FARMER_AGITATOR_LIST', input: farmerActivityInputs.FARMER_AGITATOR_LIST, answer: agitatorListResponseSchema, access: farmMember }),
  ADD_PICKUP: contract({ path: PATH, type: 'ADD_PICKUP', input: addPickupSchema, answer: addPickupResponseSchema, access: access.farmMember('farm_id') }),
  FARMER_PICKUP_LIST: contract({ path: PATH, type: 'FARMER_PICKUP_LIST', input: farmerActivityInputs.FARMER_PICKUP_LIST, answer: pickupListResponseSchema, access: farmMember }),
  // The farm's members reach it; the action itself lets only the person who entered the pickup delete it.
  DELETE_PICKUP: contract({ path: PATH, type: 'DELETE_PICKUP', input: deletePickupSchema, answer: deletePickupResponseSchema, access: access.farmMember('farm_id') }),
} as const;
