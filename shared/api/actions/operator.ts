import * as z from 'zod';
import { WATCHMAN_DEFAULTS } from '../../constants';
import { access, contract } from '../contract';

/** /api/watchman (operator spec §7). */
export const watchmanActions = {
  GET_SETTINGS: z.object({ type: z.literal('GET_SETTINGS') }),
} as const;

/** Watchman settings (operator §3): the §9 defaults' keys, each a number. */
export const watchmanSettingsSchema = z.object(
  Object.fromEntries(Object.keys(WATCHMAN_DEFAULTS).map((k) => [k, z.union([z.number(), z.boolean()])])) as Record<keyof typeof WATCHMAN_DEFAULTS, z.ZodUnion<[z.ZodNumber, z.ZodBoolean]>>,
);

/** Operator §6: Admin only unless a group is named; Admin always qualifies. */
export const operatorContracts = {
  GET_SETTINGS: contract({
    path: '/api/watchman',
    type: 'GET_SETTINGS',
    input: watchmanActions.GET_SETTINGS,
    answer: z.object({ key: z.literal('watchman'), settings: watchmanSettingsSchema }),
    access: access.operator('Installer'),
  }),
} as const;
