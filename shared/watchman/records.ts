import * as z from 'zod';

/** Watchman activity run (operator §3): the 18 fields, plus its id and the open cases by farm for the Activity tab. */
const RUN_COUNTS = [
  'farms_total',
  'farms_milking',
  'farms_dry',
  'farms_okay',
  'farms_faulty',
  'syncs_turned_on',
  'syncs_turned_off',
  'syncs_on',
  'syncs_off',
  'vats_within_spec',
  'vats_out_of_spec',
  'cases_created',
  'cases_closed',
  'error_fonterra_api',
  'error_milog_api',
  'error_particle_api',
] as const;
export type RunCount = (typeof RUN_COUNTS)[number];

export const watchmanRunSchema = z.object({
  _id: z.string(),
  started_at: z.string(),
  /** null while the run is going on. */
  finished_at: z.string().nullable(),
  ...(Object.fromEntries(RUN_COUNTS.map((k) => [k, z.number()])) as Record<RunCount, z.ZodNumber>),
  /** How the run ended: done, or stopped because on_status was turned off. */
  outcome: z.enum(['running', 'done', 'stopped']),
});
export type WatchmanRun = z.infer<typeof watchmanRunSchema>;

/** A case: one fault of one vat, open until its check passes again. */
export const watchmanCaseSchema = z.object({
  farm_id: z.string(),
  fonterra_id: z.string(),
  /** The farm's zone, so the case's times are shown on the farm's clock. */
  timezone: z.string(),
  vat: z.number(),
  device_id: z.string(),
  check: z.string(),
  evidence: z.string(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
});
export type WatchmanCase = z.infer<typeof watchmanCaseSchema>;

export const emptyCounts = (): Record<RunCount, number> => Object.fromEntries(RUN_COUNTS.map((k) => [k, 0])) as Record<RunCount, number>;
