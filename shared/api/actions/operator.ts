import { z } from 'zod';

/** /api/admin/user (operator spec §7). */
export const adminUserActions = {
  USER_LIST: z.object({ type: z.literal('USER_LIST') }),
} as const;

/** /api/admin/device (operator spec §7). isRetired: 1 active, 2 retired. */
export const adminDeviceActions = {
  DEVICE_LIST: z.object({
    type: z.literal('DEVICE_LIST'),
    isRetired: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: 'isRetired must be 1 or 2' })).default(1),
  }),
} as const;

/** /api/admin/farm (operator spec §7). */
export const adminFarmActions = {
  FARM_LIST: z.object({ type: z.literal('FARM_LIST') }),
} as const;

/** /api/milkquality (operator spec §7). */
export const milkQualityActions = {
  WESTLANDS_FARMS: z.object({ type: z.literal('WESTLANDS_FARMS') }),
} as const;

/** /api/watchman (operator spec §7). */
export const watchmanActions = {
  GET_SETTINGS: z.object({ type: z.literal('GET_SETTINGS') }),
} as const;
