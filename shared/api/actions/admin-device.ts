import * as z from 'zod';
import { CHART_POINT_CAP, RAW_ARCHIVE_DAYS } from '../../constants';
import { auditPageSchema } from '../../entities/audit';
import { deviceSchema } from '../../entities/device';
import { access, contract } from '../contract';
import * as startUp from './start-up';
import { chartPointsField, idField, instantField, intField } from '../fields';
import { detailPointSchema, vatSeriesSchema } from './farmer-activity';

/*
 * /api/admin/device (operator spec §2 device list, raw dumps, gauges and series; §7): Admin and
 * Installer (§6). A raw message's id is `<device_id>~<published_at>` (rawId): every chart point
 * carries what the client needs to open its raw message.
 */

/** The id of one raw message: its device and its reading's instant. */
export const rawId = (deviceId: string, publishedAt: string): string => `${deviceId}~${publishedAt}`;
export const parseRawId = (id: string): { deviceId: string; publishedAt: string } | undefined => {
  const at = id.lastIndexOf('~');
  if (at <= 0) return undefined;
  const publishedAt = id.slice(at + 1);
  if (Number.isNaN(Date.parse(publishedAt)) || !/^\d{4}-\d{2}-\d{2}T/.test(publishedAt)) return undefined;
  return { deviceId: id.slice(0, at), publishedAt };
};

/** Series ranges (operator §2, §9): the buttons' spans and the smallest time-range window. */
export const SERIES_RANGES = [
  { label: '1 h', hours: 1 },
  { label: '2 h', hours: 2 },
  { label: '3 h', hours: 3 },
  { label: '6 h', hours: 6 },
  { label: '1 d', hours: 24 },
  { label: '3 d', hours: 72 },
  { label: '1 w', hours: 168 },
] as const;
export const DEFAULT_SERIES_HOURS = 24;
/** operator §4: time-range paging uses a span rounded up to a multiple of 10 minutes (at least 10). */
const SERIES_STEP_MINUTES = 10;
/** The longest window a series call reads (the 1 w button; 30 days is the raw window). */
export const SERIES_MAX_DAYS = RAW_ARCHIVE_DAYS;

/** The window of a time-range call, its span rounded up to a multiple of 10 minutes, ending at `end`. */
export const roundedWindow = (start: number, end: number): { from: number; to: number } => {
  const step = SERIES_STEP_MINUTES * 60_000;
  const span = Math.max(step, Math.ceil((end - start) / step) * step);
  return { from: end - span, to: end };
};

const deviceIdField = idField('device_id');
const offsetField = (name: string, max: number) => intField(name).min(0, `${name} must be 0 or more`).max(max, `${name} may be at most ${max}`);

const adminDeviceInputs = {
  DEVICE_LIST: z.object({
    type: z.literal('DEVICE_LIST'),
    isRetired: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: 'isRetired must be 1 or 2' })).default(1),
  }),
  DEVICE_EDIT: z.object({
    type: z.literal('DEVICE_EDIT'),
    device_id: deviceIdField,
    status: z.coerce.number({ error: 'status must be 1 or 2' }).pipe(z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 or 2' })),
  }),
  DEVICE_LOAD_NAME: z.object({ type: z.literal('DEVICE_LOAD_NAME') }),
  DEVICE_ONE_RAWS: z.object({
    type: z.literal('DEVICE_ONE_RAWS'),
    device_id: deviceIdField,
    days: intField('days')
      .min(0, `days must be 0 to ${RAW_ARCHIVE_DAYS - 1}`)
      .max(RAW_ARCHIVE_DAYS - 1, `days must be 0 to ${RAW_ARCHIVE_DAYS - 1}`),
  }),
  DEVICE_ONE: z.object({ type: z.literal('DEVICE_ONE'), device_id: deviceIdField }),
  /** Not in the spec: the fleet's changes (status, names, vat settings), newest first; `cursor` is the previous page's. */
  DEVICE_AUDIT_LIST: z.object({
    type: z.literal('DEVICE_AUDIT_LIST'),
    cursor: z.string({ error: 'cursor is not valid' }).max(200, 'cursor is not valid').optional(),
  }),
  DEVICE_ONE_SERIES: z.object({
    type: z.literal('DEVICE_ONE_SERIES'),
    device_id: deviceIdField,
    days1: offsetField('days1', SERIES_MAX_DAYS),
    hours1: offsetField('hours1', 24 * SERIES_MAX_DAYS),
    days2: offsetField('days2', SERIES_MAX_DAYS),
    hours2: offsetField('hours2', 24 * SERIES_MAX_DAYS),
    points: chartPointsField,
  }),
  DEVICE_ONE_SERIES_TIME_RANGE: z.object({
    type: z.literal('DEVICE_ONE_SERIES_TIME_RANGE'),
    device_id: deviceIdField,
    start: instantField('start'),
    end: instantField('end'),
    points: chartPointsField,
  }),
  /** Ours: the same window's figures beside its readings (DEVICE_ONE_SERIES_TIME_RANGE answers the spec's list alone). */
  DEVICE_ONE_SERIES_WINDOW: z.object({
    type: z.literal('DEVICE_ONE_SERIES_WINDOW'),
    device_id: deviceIdField,
    start: instantField('start'),
    end: instantField('end'),
    /** As the readings' call: the cooler readings are those of the same kept readings. */
    points: chartPointsField,
  }),
  DEVICE_ONE_RAW: z.object({
    type: z.literal('DEVICE_ONE_RAW'),
    _id: z
      .string({ error: '_id is required' })
      .max(200, '_id is not valid')
      .refine((s) => parseRawId(s) !== undefined, '_id is not valid'),
  }),
} as const;

// ---- Answers --------------------------------------------------------------------------------

/** A device list row (operator §2): the device, its farm's supply number and name, and retired-device traffic. */
const deviceRowSchema = deviceSchema.extend({
  /** The farm's supply number ('N/A' on the screen when the device has no farm). */
  fonterra_id: z.string().nullable(),
  farm_name: z.string().nullable(),
  /** The farm's time zone (the fleet's, New Zealand, for a device with no farm): Last Seen is shown in it. */
  timezone: z.string(),
  /** Messages refused today and yesterday because the device is retired: it is still sending. */
  retired_messages: z.number().int(),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;

/** The gauge and title data of one device (operator §3 calibration and gauge device). */
const gaugeDeviceSchema = deviceSchema.extend({ fonterra_id: z.string().nullable(), package: z.string().nullable(), timezone: z.string() });

const rawRecordSchema = z.object({ _id: z.string(), published_at: z.string(), raw: z.string() });

/** A series window: vat readings (≤ the chart cap, peaks kept), cooler readings and the agitator stops. */
const seriesAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Readings in the window before thinning. */
  points: vatSeriesSchema.shape.points,
  /** operator §2's names for the vat series' detailData and coolerData. */
  vat: vatSeriesSchema.shape.detailData.max(CHART_POINT_CAP),
  cooler: vatSeriesSchema.shape.coolerData,
  agitatorData: vatSeriesSchema.shape.agitatorData,
});
export type SeriesAnswer = z.infer<typeof seriesAnswerSchema>;

/** A paged window's figures (DEVICE_ONE_SERIES_WINDOW): everything of a series answer but its readings. */
const seriesWindowSchema = seriesAnswerSchema.omit({ vat: true });

// ---- Contracts ------------------------------------------------------------------------------

const PATH = '/api/admin/device';
const fleet = access.operator('Installer');
const admin = access.admin();

export const adminDeviceContracts = {
  DEVICE_LIST: contract({ ...startUp.DEVICE_LIST, input: adminDeviceInputs.DEVICE_LIST, answer: z.array(deviceRowSchema), access: fleet }),
  DEVICE_EDIT: contract({ path: PATH, type: 'DEVICE_EDIT', input: adminDeviceInputs.DEVICE_EDIT, answer: deviceSchema, access: fleet }),
  DEVICE_LOAD_NAME: contract({
    path: PATH,
    type: 'DEVICE_LOAD_NAME',
    input: adminDeviceInputs.DEVICE_LOAD_NAME,
    answer: z.object({ checked: z.number().int(), renamed: z.array(z.object({ _id: z.string(), from: z.string(), to: z.string() })) }),
    access: fleet,
  }),
  /** Not in the spec: who retired, restored, renamed or calibrated which device; Admin only, as the other change lists. */
  DEVICE_AUDIT_LIST: contract({ path: PATH, type: 'DEVICE_AUDIT_LIST', input: adminDeviceInputs.DEVICE_AUDIT_LIST, answer: auditPageSchema, access: admin }),
  DEVICE_ONE_RAWS: contract({
    path: PATH,
    type: 'DEVICE_ONE_RAWS',
    input: adminDeviceInputs.DEVICE_ONE_RAWS,
    answer: z.object({ device: gaugeDeviceSchema, day: z.string(), raws: z.array(rawRecordSchema) }),
    access: fleet,
  }),
  DEVICE_ONE: contract({
    path: PATH,
    type: 'DEVICE_ONE',
    input: adminDeviceInputs.DEVICE_ONE,
    answer: z.object({ device: gaugeDeviceSchema, data: detailPointSchema.nullable() }),
    access: fleet,
  }),
  DEVICE_ONE_SERIES: contract({ path: PATH, type: 'DEVICE_ONE_SERIES', input: adminDeviceInputs.DEVICE_ONE_SERIES, answer: seriesAnswerSchema, access: fleet }),
  DEVICE_ONE_SERIES_TIME_RANGE: contract({
    path: PATH,
    type: 'DEVICE_ONE_SERIES_TIME_RANGE',
    input: adminDeviceInputs.DEVICE_ONE_SERIES_TIME_RANGE,
    /** operator §7: 'returns a list of readings' (the vat readings of the window, ≤ the chart cap). */
    answer: seriesAnswerSchema.shape.vat,
    access: fleet,
  }),
  DEVICE_ONE_SERIES_WINDOW: contract({ path: PATH, type: 'DEVICE_ONE_SERIES_WINDOW', input: adminDeviceInputs.DEVICE_ONE_SERIES_WINDOW, answer: seriesWindowSchema, access: fleet }),
  DEVICE_ONE_RAW: contract({ path: PATH, type: 'DEVICE_ONE_RAW', input: adminDeviceInputs.DEVICE_ONE_RAW, answer: rawRecordSchema.extend({ device_id: z.string() }), access: fleet }),
} as const;
