import { farmerActivityContracts as contracts } from '../../../shared/api/actions/farmer-activity';
import { PICKUP_DELETE_REFUSED, PICKUP_FUTURE_SLACK_MS, PICKUP_MESSAGES } from '../../../shared/api/actions/farmer-pickup';
import { isDairyCompanyFarm } from '../../../shared/entities/farm';
import { checkTankerDifference, savedMatchingMinutes } from '../../alerts/tanker-check';
import type { Device } from '../../../shared/entities/device';
import type { Farm } from '../../../shared/entities/farm';
import { serve } from '../../lib/dispatch';
import type { Logger } from '../../lib/logger';
import type { Ports } from '../../ports/action-ports';
import { ForbiddenError, ValidationError } from '../../lib/errors';

/**
 * ADD_PICKUP (farmer §2.14, §7) on /api/farmer/activity. The schema has refused bad figures
 * (422, nothing stored); then the farm must be the caller's (403), not a dairy-company farm
 * (§6: the dairy company reports those pickups), the vat one of its vats, the time not ahead.
 */
/**
 * A pickup is a tanker figure: hold the vat's collections against it again (alert 702). The pickup
 * is stored whatever happens here; a failed check is logged and runs again at the next pickup.
 */
const recheckTanker = async (deps: Pick<Ports, 'readings' | 'pickups' | 'alertsWrite' | 'watchman' | 'now'>, farm: Farm, device: Device | undefined, log: Logger) => {
  if (!device) return;
  try {
    const matchingMinutes = await savedMatchingMinutes(deps.watchman);
    await checkTankerDifference({ readings: deps.readings, pickups: deps.pickups, alerts: deps.alertsWrite, matchingMinutes, now: deps.now }, farm, device);
  } catch (err) {
    log.error('tanker check after a pickup failed', { farm: farm._id, vat: device.vat_number, err });
  }
};

export const addPickupAction = serve(contracts.ADD_PICKUP, ['farms', 'pickups', 'readings', 'alertsWrite', 'watchman', 'now'], async (input, { farm, caller, deps, log }) => {
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
  await recheckTanker(deps, farm, device, log);
  return 'success' as const;
});

/**
 * DELETE_PICKUP: the farm's member reaches it (the contract); only the person who entered the
 * pickup may delete it (403 otherwise, Admin included: a pickup is that farmer's statement). A
 * pickup already gone answers 'success', so a second click or a retry does no harm.
 */
export const deletePickupAction = serve(contracts.DELETE_PICKUP, ['farms', 'pickups', 'readings', 'alertsWrite', 'watchman', 'now'], async (input, { farm, caller, deps, log }) => {
  const pickup = (await deps.pickups.listPickups(farm._id)).find((p) => p.vat === input.vat && p.datetime === input.datetime);
  if (!pickup) return 'success' as const;
  if (pickup.submitted_by !== caller.userId) throw new ForbiddenError(PICKUP_DELETE_REFUSED);
  await deps.pickups.deletePickup(farm._id, pickup.datetime, pickup.vat);
  log.info('pickup deleted', { farm: farm._id, vat: pickup.vat, datetime: pickup.datetime });
  await recheckTanker(deps, farm, (await deps.farms.listDevicesOfFarm(farm._id)).find((d) => d.status === 1 && d.vat_number === pickup.vat), log);
  return 'success' as const;
});
