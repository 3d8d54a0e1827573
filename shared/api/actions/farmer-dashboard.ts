import { z } from 'zod';
import { farmField } from '../fields';

const farmOnly = <T extends string>(type: T) => z.object({ type: z.literal(type), farm: farmField });

/** /api/farmer/dashboard (farmer spec §7): the three types share one answer: farm, vats, knode. */
export const farmerDashboardActions = {
  FARMER_DASHBOARD_GET: farmOnly('FARMER_DASHBOARD_GET'),
  FARMER_DASHBOARD_GET_KNODE: farmOnly('FARMER_DASHBOARD_GET_KNODE'),
  FARMER_DASHBOARD_MOUDLE: farmOnly('FARMER_DASHBOARD_MOUDLE'),
} as const;
