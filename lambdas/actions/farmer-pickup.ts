import { addPickupSchema, PICKUP_FUTURE_SLACK_MS, PICKUP_MESSAGES } from '../../shared/api/actions/farmer-pickup';
import { isDairyCompanyFarm } from '../../shared/entities/farm';
import type { PickupRepository } from '../adapters/dynamodb/pickups-repository';
import { requireFarmMember } from '../lib/access';
import type { Deps } from '../lib/deps';
import { action, type ActionDef } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';

/** ADD_PICKUP's ports: the farm and its vats, the pickups, the clock. */
export type PickupDeps = Pick<Deps, 'farms' | 'now'> & { readonly pickups: PickupRepository };

/**
 * ADD_PICKUP (farmer §2.14, §7) on /api/farmer/activity. The schema has refused bad figures
 * (422, nothing stored); then the farm must be the caller's (403), not a dairy-company farm
 * (§6: the dairy company reports those pickups), the vat one of its vats, the time not ahead.
 */
export const makePickupActions = (): Readonly<Record<string, ActionDef<PickupDeps>>> => ({
  ADD_PICKUP: action(addPickupSchema, async (input, { caller, deps, log }) => {
    const farm = await requireFarmMember(deps.farms, caller, input.farm_id);
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
    return 'success';
  }),
});

export const pickupActions = makePickupActions();
