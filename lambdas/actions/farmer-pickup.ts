import { farmerActivityContracts as contracts } from '../../shared/api/actions/farmer-activity';
import { PICKUP_FUTURE_SLACK_MS, PICKUP_MESSAGES } from '../../shared/api/actions/farmer-pickup';
import { isDairyCompanyFarm } from '../../shared/entities/farm';
import { serve } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';

/**
 * ADD_PICKUP (farmer §2.14, §7) on /api/farmer/activity. The schema has refused bad figures
 * (422, nothing stored); then the farm must be the caller's (403), not a dairy-company farm
 * (§6: the dairy company reports those pickups), the vat one of its vats, the time not ahead.
 */
export const addPickupAction = serve(contracts.ADD_PICKUP, ['farms', 'pickups', 'now'], async (input, { farm, caller, deps, log }) => {
  if (isDairyCompanyFarm(farm.fonterra_id)) throw new ForbiddenError(PICKUP_MESSAGES.dairyCompany);
  const now = deps.now();
  if (Date.parse(input.datetime) > now.getTime() + PICKUP_FUTURE_SLACK_MS) throw new ValidationError(PICKUP_MESSAGES.future);
  const device = (await deps.farms.listDevicesOfFarm(farm._id)).find((d) => d.status === 1 && d.vat_number === input.vat);
  if (!device) throw new ValidationError(PICKUP_MESSAGES.unknownVat(input.vat));
  await deps.pickups.putPickup({
    farm_id: farm._id,
    vat: input.vat,
    device_id: device._id,
    datetime: input.datetime,
    volume: input.volume,
    temperature: input.temperature ?? null,
    submitted_by: caller.userId,
    submitted_at: now.toISOString(),
  });
  log.info('pickup stored', { farm: farm._id, vat: input.vat, datetime: input.datetime });
  return 'success' as const;
});
