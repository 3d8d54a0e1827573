import { farmerDashboardActions as schemas } from '../../shared/api/actions/farmer-dashboard';
import type { Device } from '../../shared/entities/device';
import { requireFarmMember } from '../lib/access';
import type { Actions } from '../lib/api-handler';
import type { Deps } from '../lib/deps';
import { action, type ActionContext } from '../lib/dispatch';

/** A vat as the dashboard shows it (farmer spec §3 Vat). */
export const toVat = (d: Device) => ({
  _id: d._id,
  name: d.name,
  vat_number: d.vat_number,
  vat_size: d.vat_size,
  vat_auto: d.vat_auto,
  last_updated: d.last_updated ?? null,
});

const dashboard = async ({ farm: farmId }: { farm: string }, { caller, deps }: ActionContext<Deps>) => {
  const farm = await requireFarmMember(deps.farms, caller, farmId);
  const [devices, knode] = await Promise.all([deps.farms.listDevicesOfFarm(farmId), deps.farms.listKnodeAssets(farmId)]);
  return { farm, vats: devices.filter((d) => d.status === 1).map(toVat), knode };
};

/** /api/farmer/dashboard: the three types answer farm, vats and knode (farmer spec §7). */
export const farmerDashboardActions: Actions = {
  FARMER_DASHBOARD_GET: action(schemas.FARMER_DASHBOARD_GET, dashboard),
  FARMER_DASHBOARD_GET_KNODE: action(schemas.FARMER_DASHBOARD_GET_KNODE, dashboard),
  FARMER_DASHBOARD_MOUDLE: action(schemas.FARMER_DASHBOARD_MOUDLE, dashboard),
};
