import type { Device } from '../../shared/entities/device';
import type { SettingsTarget } from '../ports/iot';
import type { Ports } from '../ports/action-ports';

/**
 * Where a vat's controller settings are sent: its farm's controller unit with the vat's number
 * (the unit answers for the vats it serves), or, for a farm installed before units were recorded,
 * the vat's own thing.
 */
export const settingsTargetOf = async (units: Ports['units'], device: Pick<Device, 'farm_id' | 'name' | 'vat_number'>): Promise<SettingsTarget> => {
  const unit = await units.unitOfFarm(device.farm_id);
  return unit ? { unit: unit._id, vat: device.vat_number } : { thing: device.name };
};
