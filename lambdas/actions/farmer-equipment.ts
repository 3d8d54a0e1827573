import { farmerEquipmentContracts as contracts, type EquipmentData, type VatLive } from '../../shared/api/actions/farmer-equipment';
import type { Device } from '../../shared/entities/device';
import { EQUIPMENT_MESSAGES, EQUIPMENT_TYPES, itemsOf, plantOf } from '../../shared/entities/equipment';
import { serve, type ServedAction } from '../lib/dispatch';
import { ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';

/** The farm's vats as the farmer's screens show them: the active ones (a retired device is no vat of the farm any more). */
const activeVats = async (farms: Ports['farms'], farmId: string): Promise<Device[]> =>
  (await farms.listDevicesOfFarm(farmId)).filter((d) => d.status === 1);

const liveOf = (d: Device): VatLive => ({
  vat_number: d.vat_number,
  vat_size: d.vat_size,
  published_at: d.last_updated?.published_at ?? null,
  temp1: d.last_updated?.temp1 ?? null,
  agitator_status: d.last_updated?.agitator_status ?? null,
  milk_volume: d.last_updated?.milk_volume ?? null,
});

/**
 * /api/farmer/equipment (farmer §2.13, §7). Dispatch has checked the farm is the caller's (403
 * otherwise) and the schema has refused anything outside the catalogue (422, nothing stored).
 */
export const farmerEquipmentHandlers: readonly ServedAction[] = [
  serve(contracts.EQUIPMENT_GET, ['farms', 'equipment'], async (_input, { farm, deps }) => {
    const [vats, items] = await Promise.all([activeVats(deps.farms, farm._id), deps.equipment.getEquipment(farm._id)]);
    return itemsOf(plantOf(items ?? [], vats.map((v) => v.vat_number)));
  }),

  serve(contracts.EQUIPMENT_UPDATE, ['farms', 'equipmentWrite', 'now'], async (input, { farm, caller, deps, log }) => {
    const vatNumbers = new Set((await activeVats(deps.farms, farm._id)).map((v) => v.vat_number));
    const foreign = input.equipment.filter((i) => i.type === EQUIPMENT_TYPES.vat && !vatNumbers.has(i.id)).map((i) => EQUIPMENT_MESSAGES.unknownVat(i.id));
    if (foreign.length > 0) throw new ValidationError(foreign.length === 1 ? (foreign[0] as string) : foreign);
    // Stored as sent (the whole set replaces the old one); what was left out reads as the default.
    const items = [...input.equipment].sort((a, b) => a.type - b.type || a.id - b.id);
    await deps.equipmentWrite.putEquipment(farm._id, items, { userId: caller.userId, at: deps.now().toISOString() });
    log.info('equipment stored', { farm: farm._id, items: items.length });
    return itemsOf(plantOf(items, [...vatNumbers]));
  }),

  serve(contracts.EQUIPMENT_DATA_GET, ['farms'], async (_input, { farm, deps }) => {
    const vats = await activeVats(deps.farms, farm._id);
    const byNumber = (n: number) => vats.find((v) => v.vat_number === n);
    const answer: EquipmentData = { vat1: null, vat2: null };
    for (const n of [1, 2] as const) {
      const d = byNumber(n);
      answer[`vat${n}`] = d ? liveOf(d) : null;
    }
    for (const n of [3, 4] as const) {
      const d = byNumber(n);
      if (d) answer[`vat${n}`] = liveOf(d);
    }
    return answer;
  }),
];
