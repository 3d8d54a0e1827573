import { farmerDashboardContracts as contracts } from '../../shared/api/actions/farmer-dashboard';
import type { Farm } from '../../shared/entities/farm';
import { serve, type ServedAction } from '../lib/dispatch';
import type { Ports } from '../ports/action-ports';
import { toVat } from './support/vats';

const dashboard = async (farm: Farm, farms: Ports['farms']) => {
  const [devices, knode] = await Promise.all([farms.listDevicesOfFarm(farm._id), farms.listKnodeAssets(farm._id)]);
  return { farm, vats: devices.filter((d) => d.status === 1).map(toVat), knode };
};

/** /api/farmer/dashboard: the three types answer farm, vats and knode (farmer spec §7). */
export const farmerDashboardHandlers: readonly ServedAction[] = [
  serve(contracts.FARMER_DASHBOARD_GET, ['farms'], async (_input, { farm, deps }) => dashboard(farm, deps.farms)),
  serve(contracts.FARMER_DASHBOARD_GET_KNODE, ['farms'], async (_input, { farm, deps }) => dashboard(farm, deps.farms)),
  serve(contracts.FARMER_DASHBOARD_MOUDLE, ['farms'], async (_input, { farm, deps }) => dashboard(farm, deps.farms)),
];
