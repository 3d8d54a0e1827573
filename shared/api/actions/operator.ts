import * as z from 'zod';
import { auditEntrySchema } from '../../entities/audit';
import { watchmanCaseSchema, watchmanRunSchema } from '../../watchman/records';
import { checkLimitPairs, watchmanFormShape, watchmanSettingsSchema } from '../../watchman/settings';
import { intField } from '../fields';
import { access, contract } from '../contract';

/** Runs per page of the Activity tab. */
export const WATCHMAN_PAGE_SIZE = 20;

const pageField = intField('page').min(0, 'page must be 0 or more').max(10_000, 'page is not valid').optional();

/** /api/watchman (operator spec §7). */
export const watchmanInputs = {
  GET_SETTINGS: z.object({ type: z.literal('GET_SETTINGS') }),
  /** No payload in the spec; `page` (zero-based, optional) pages the runs newest first. */
  GET_ACTIVITY: z.object({ type: z.literal('GET_ACTIVITY'), page: pageField }),
  /** Ours: what the Activity tab shows beside the runs (GET_ACTIVITY answers the spec's list of runs alone). */
  GET_ACTIVITY_SUMMARY: z.object({ type: z.literal('GET_ACTIVITY_SUMMARY') }),
  SAVE_SETTINGS: z.object({ type: z.literal('SAVE_SETTINGS'), ...watchmanFormShape }).superRefine(checkLimitPairs),
} as const;

/** Operator §6: "Calibration, device series, gauges and Watchman are admin and installer pages." */
export const operatorContracts = {
  GET_SETTINGS: contract({
    path: '/api/watchman',
    type: 'GET_SETTINGS',
    input: watchmanInputs.GET_SETTINGS,
    answer: z.object({ key: z.literal('watchman'), settings: watchmanSettingsSchema }),
    access: access.operator('Installer'),
  }),
  GET_ACTIVITY: contract({
    path: '/api/watchman',
    type: 'GET_ACTIVITY',
    input: watchmanInputs.GET_ACTIVITY,
    /** operator §7: 'returns a list of runs', newest first, WATCHMAN_PAGE_SIZE a page. */
    answer: watchmanRunSchema.array(),
    access: access.operator('Installer'),
  }),
  GET_ACTIVITY_SUMMARY: contract({
    path: '/api/watchman',
    type: 'GET_ACTIVITY_SUMMARY',
    input: watchmanInputs.GET_ACTIVITY_SUMMARY,
    answer: z.object({
      /** Total runs kept (for paging the Activity tab). */
      count: z.number(),
      /** The cases open now, per farm (the Activity tab expands them), each with the vat's device for the link. */
      open_cases: watchmanCaseSchema.array(),
      /** Not in the spec: the newest saves of the settings, who made them and what changed. */
      settings_changes: auditEntrySchema.array(),
    }),
    access: access.operator('Installer'),
  }),
  SAVE_SETTINGS: contract({
    path: '/api/watchman',
    type: 'SAVE_SETTINGS',
    input: watchmanInputs.SAVE_SETTINGS,
    answer: z.literal('success'),
    access: access.operator('Installer'),
  }),
} as const;
