import { CALIBRATION_MESSAGES } from '../../../shared/api/actions/calibration';
import type { Device } from '../../../shared/entities/device';
import type { Farm } from '../../../shared/entities/farm';
import { ValidationError } from '../../lib/errors';
import type { Ports } from '../../ports/action-ports';

/** The farm and active vat an operator names by supply number and vat number (422 when either is unknown). */
export const vatOf = async (farms: Ports['farms'], supplyNumber: string, vatNumber: number): Promise<{ farm: Farm; device: Device }> => {
  const farm = await farms.findFarmBySupplyNumber(supplyNumber);
  if (!farm) throw new ValidationError(CALIBRATION_MESSAGES.noFarm);
  const device = (await farms.listDevicesOfFarm(farm._id)).find((d) => d.vat_number === vatNumber && d.status === 1);
  if (!device) throw new ValidationError(CALIBRATION_MESSAGES.noVat(vatNumber));
  return { farm, device };
};
