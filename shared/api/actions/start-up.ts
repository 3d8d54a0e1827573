import type { ActionAddress } from '../contract';

/**
 * The actions the web app sends at start-up, by address: the farmer shell's first calls
 * (frontend/src/features/shell/api/early-calls.ts) go out while the screen's code and the contracts'
 * zod schemas are still downloading, and their answers are checked against the contracts when the
 * screen takes them. No zod here: this module rides in the early calls' small chunk. The contracts
 * (user.ts, farmer-activity.ts) are made from these addresses, so path and type are written once.
 */
export const USER_ONE_GET_BY_TOKEN = { path: '/api/user', type: 'USER_ONE_GET_BY_TOKEN' } as const satisfies ActionAddress;
/** The operators' device list (operator §2), asked at once when a first load opens /dts/devices. */
export const DEVICE_LIST = { path: '/api/admin/device', type: 'DEVICE_LIST' } as const satisfies ActionAddress;
export const FARMER_DASHBOARD_LAST = { path: '/api/farmer/activity', type: 'FARMER_DASHBOARD_LAST' } as const satisfies ActionAddress;
