import * as z from 'zod';
import { RAW_ARCHIVE_DAYS } from '../../constants';
import { access, contract } from '../contract';

/*
 * The operators' fleet overview and search (operator §2, §6: Admin and Installer), served by
 * /api/admin/device beside the device list. Both read counters and indexes only, never the whole
 * fleet: docs/decisions/055-fleet-counters-and-seen-index.md, 056-operator-search-lookups.md.
 */

/** A unit is silent after this long without a message: the device list's 'down' (operator §9). */
export const SILENT_AFTER_MS = 24 * 3_600_000;
/** How many of the silent units the overview names, oldest first. */
export const SILENT_SHOWN = 10;
/** The overview's alert window. */
export const ALERT_WINDOW_HOURS = 24;
/** The farms named per alert type (the rest are counted, not named). */
export const ALERT_FARMS_SHOWN = 20;
/**
 * The month-to-date SMS spend that raises the operators' alarm (USD; cdk operator-alarms
 * `smsSpendUsd`), and the price the overview assumes per text to set the month's texts against it.
 */
export const SMS_SPEND_ALARM_USD = 50;
export const SMS_PRICE_USD = 0.1;

/** Search: the shortest text worth a lookup, the longest accepted, and the page size per kind. */
export const SEARCH_MIN = 2;
const SEARCH_MAX = 100;
export const SEARCH_PAGE = 10;
const SEARCH_KINDS = ['farm', 'device', 'user'] as const;
/** The ingest's problems page: rejected messages per page, and how much of each payload it shows. */
export const INGEST_PROBLEMS_PAGE = 50;
export const REJECTED_PAYLOAD_SHOWN = 500;
/** How far back the rejected messages are kept: the raw archive's days. */
export const REJECTED_DAYS_KEPT = RAW_ARCHIVE_DAYS;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** A blank field means none, as for every filter. */
const blankAsNone = (v: unknown) => (v === '' || v === null ? undefined : v);

const operatorFleetInputs = {
  FLEET_SUMMARY: z.object({ type: z.literal('FLEET_SUMMARY') }),
  OPERATOR_SEARCH: z.object({
    type: z.literal('OPERATOR_SEARCH'),
    q: z
      .string({ error: 'Enter a supply number, IMEI, device name, farm name or email.' })
      .trim()
      .min(SEARCH_MIN, `Enter at least ${SEARCH_MIN} characters.`)
      .max(SEARCH_MAX, `Search text may be at most ${SEARCH_MAX} characters.`),
    /** The next page of one kind: the `next` the previous page answered for it. */
    kind: z.enum(SEARCH_KINDS, { error: 'kind must be farm, device or user' }).optional(),
    after: z.string().max(300, 'after is not valid').optional(),
  }),
  /** The list behind the overview's ingest health: the dead letters waiting and a day's rejected messages, a page at a time. */
  INGEST_PROBLEMS: z.object({
    type: z.literal('INGEST_PROBLEMS'),
    /** A UTC day, YYYY-MM-DD; none or blank: today. */
    day: z.preprocess(
      blankAsNone,
      z
        .string({ error: 'day must be a date (YYYY-MM-DD)' })
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'day must be a date (YYYY-MM-DD)')
        .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'day must be a date (YYYY-MM-DD)')
        .optional(),
    ),
    after: z.preprocess(blankAsNone, z.string().max(300, 'after is not valid').optional()),
  }),
} as const;

// ---- Answers --------------------------------------------------------------------------------

const silentUnitSchema = z.object({
  _id: z.string(),
  name: z.string(),
  farm_id: z.string(),
  fonterra_id: z.string().nullable(),
  /** The farm's zone (the fleet's for a unit without a farm): its last message is shown in it. */
  timezone: z.string(),
  seen_at: z.string().nullable(),
});
const alertTypeCountSchema = z.object({
  type: z.number().int(),
  count: z.number().int(),
  /** Farms it was raised on (up to ALERT_FARMS_SHOWN), by supply number. */
  farms: z.array(z.object({ _id: z.string(), fonterra_id: z.string() })),
});

const fleetSummarySchema = z.object({
  at: z.string(),
  units: z.object({ reporting: z.number().int(), silent: z.number().int(), oldest: z.array(silentUnitSchema) }),
  watchman: z.object({ open_cases: z.number().int(), last_run: z.string().nullable() }),
  alerts: z.object({ hours: z.number().int(), total: z.number().int(), by_type: z.array(alertTypeCountSchema) }),
  installs: z.object({ since: z.string(), count: z.number().int() }),
  sms: z.object({ month: z.string(), sent: z.number().int(), alarm_usd: z.number(), price_usd: z.number() }),
  ingest: z.object({
    /** When the ingest last handled a batch, and the age of that batch's oldest record on arrival (the iterator age). */
    last_batch_at: z.string().nullable(),
    iterator_age_ms: z.number().nullable(),
    /** Records the ingest handed back for a retry in the last 24 hours. */
    retried_24h: z.number().int(),
    /** Messages in the ingest's dead-letter queue now: batches the stream gave up and messages the rule could not deliver, waiting for a re-drive (decision 075). */
    dead_letters: z.number().int(),
  }),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;

const rejectedMessageSchema = z.object({
  received_at: z.string(),
  topic: z.string(),
  reason: z.string(),
  /** The payload's first REJECTED_PAYLOAD_SHOWN characters. */
  payload: z.string(),
});
const ingestProblemsSchema = z.object({
  day: z.string(),
  /** As FLEET_SUMMARY's ingest.dead_letters. */
  dead_letters: z.number().int(),
  rejected: z.array(rejectedMessageSchema),
  /** The `after` of the next page; null: this was the last. */
  next: z.string().nullable(),
});
export type IngestProblems = z.infer<typeof ingestProblemsSchema>;

const searchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  _id: z.string(),
  label: z.string(),
  detail: z.string(),
  /** What the web app opens it by: the farm's supply number, the device's id, the user's email. */
  key: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

const searchAnswerSchema = z.object({
  hits: z.array(searchHitSchema),
  /** Per kind with more matches: the `after` that asks for the next page. */
  next: z.object({ farm: z.string().optional(), device: z.string().optional(), user: z.string().optional() }),
});

// ---- Contracts ------------------------------------------------------------------------------

const PATH = '/api/admin/device';
const fleet = access.operator('Installer');

export const operatorFleetContracts = {
  FLEET_SUMMARY: contract({ path: PATH, type: 'FLEET_SUMMARY', input: operatorFleetInputs.FLEET_SUMMARY, answer: fleetSummarySchema, access: fleet }),
  OPERATOR_SEARCH: contract({ path: PATH, type: 'OPERATOR_SEARCH', input: operatorFleetInputs.OPERATOR_SEARCH, answer: searchAnswerSchema, access: fleet }),
  INGEST_PROBLEMS: contract({ path: PATH, type: 'INGEST_PROBLEMS', input: operatorFleetInputs.INGEST_PROBLEMS, answer: ingestProblemsSchema, access: fleet }),
} as const;
