import type { VatLive } from '@shared/api/actions/farmer-equipment';
import { EQUIPMENT_TYPES, plantOf, preCoolingLabel, subTypesOf, vatValueLabel, type EquipmentItem, type Plant } from '@shared/entities/equipment';
import { formatAgitator, formatTemperature, formatVolume } from '../../../lib/format';

/** The plant EQUIPMENT_GET describes: it lists every vat of the farm, so its vat items are the vats. */
export const plantFromItems = (items: readonly EquipmentItem[]): Plant =>
  plantOf(items, items.filter((i) => i.type === EQUIPMENT_TYPES.vat).map((i) => i.id));

export const subTypeLabel = (value: number, sub: number): string => subTypesOf(value).find((s) => s.value === sub)?.label ?? `Sub-type ${sub}`;

/** The plant in the spec's words, a line per part: 'Pre-cooling: Ice Bank', 'Vat 2: Vat with sidewall, Fridge2'. */
export const describePlant = (plant: Plant): string[] => [
  `Pre-cooling: ${preCoolingLabel(plant.preCooling) ?? 'None'}`,
  ...plant.vats.map((v) => `Vat ${v.id}: ${vatValueLabel(v.value) ?? 'Vat'}, ${subTypeLabel(v.value, v.sub_value)}`),
];

export interface LiveLabels {
  readonly temperature: string;
  readonly agitator: string;
  readonly volume: string;
  /** How full the vat is, 0 to 1, for the milk drawn in the tank. */
  readonly fill: number;
  readonly hasReading: boolean;
}

const agitatorOf = (status: number | null): 0 | 1 | null => (status === 0 || status === 1 ? status : null);

/**
 * A vat's live label (farmer §2.13: temp1, agitator_status, milk_volume, vat_size) in the §9
 * forms: temperature to 1 decimal, volume to 10 L, the agitator Running or Stopped.
 */
export const liveLabels = (live: VatLive | null | undefined): LiveLabels => {
  if (!live || live.published_at === null) {
    return { temperature: '–', agitator: '–', volume: live ? `– / ${formatVolume(live.vat_size)}` : '–', fill: 0, hasReading: false };
  }
  const volume = live.milk_volume;
  const fill = volume !== null && live.vat_size > 0 ? Math.min(1, Math.max(0, volume / live.vat_size)) : 0;
  return {
    temperature: formatTemperature(live.temp1),
    agitator: formatAgitator(agitatorOf(live.agitator_status)),
    volume: `${volume === null ? '–' : formatVolume(volume).replace(/ L$/, '')} / ${formatVolume(live.vat_size)}`,
    fill,
    hasReading: true,
  };
};
