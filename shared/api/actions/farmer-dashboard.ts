import * as z from 'zod';
import { farmSchema, knodeAssetSchema } from '../../entities/farm';
import { access, contract } from '../contract';
import { farmField } from '../fields';
import { vatSchema } from './farmer-activity';

const farmOnly = <T extends string>(type: T) => z.object({ type: z.literal(type), farm: farmField });

/** /api/farmer/dashboard (farmer spec §7): the three types share one answer: farm, vats, knode. */
const farmerDashboardInputs = {
  FARMER_DASHBOARD_GET: farmOnly('FARMER_DASHBOARD_GET'),
  FARMER_DASHBOARD_GET_KNODE: farmOnly('FARMER_DASHBOARD_GET_KNODE'),
  FARMER_DASHBOARD_MOUDLE: farmOnly('FARMER_DASHBOARD_MOUDLE'),
} as const;

/** The farm (farmer §3), its active vats and its knode assets. */
const farmerDashboardAnswerSchema = z.object({
  farm: farmSchema,
  vats: z.array(vatSchema),
  knode: z.array(knodeAssetSchema),
});

const PATH = '/api/farmer/dashboard';
const dashboard = <T extends keyof typeof farmerDashboardInputs>(type: T) =>
  contract({ path: PATH, type, input: farmerDashboardInputs[type], answer: farmerDashboardAnswerSchema, access: access.farmMember() });

export const farmerDashboardContracts = {
  FARMER_DASHBOARD_GET: dashboard('FARMER_DASHBOARD_GET'),
  FARMER_DASHBOARD_GET_KNODE: dashboard('FARMER_DASHBOARD_GET_KNODE'),
  FARMER_DASHBOARD_MOUDLE: dashboard('FARMER_DASHBOARD_MOUDLE'),
} as const;
