import { farmerDashboardContracts as contracts } from '../../shared/api/actions/farmer-dashboard';
import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { serve, type ServedAction } from '../lib/dispatch';
import type { Ports } from '../ports/action-ports';

/** A vat as the dashboard shows it (farmer spec §3 Vat). */
export const toVat = (d: Device) => ({
  _id: d._id,
  name: d.name,
  vat_number: d.vat_number,
  vat_size: d.vat_size,
  vat_auto: d.vat_auto,
  last_updated: d.last_updated ?? null,
});

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
