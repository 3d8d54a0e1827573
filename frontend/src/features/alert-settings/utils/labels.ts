import type { AlertSettingField, AutoSettingField } from '@shared/alerts/settings';

export interface FieldLabel {
  readonly label: string;
  readonly unit: string;
}

/** Threshold labels; the save messages of §5 name the first three 'Too warm', 'Too cold', 'Volume level'. */
export const ALERT_SETTING_LABELS: Readonly<Record<AlertSettingField, FieldLabel>> = {
  milk_warm_plate: { label: 'Too warm', unit: '°C' },
  milk_cold: { label: 'Too cold', unit: '°C' },
  milk_volume: { label: 'Volume level', unit: '%' },
  milk_slow_temp: { label: 'Slow to cool temperature', unit: '°C' },
  milk_slow_peroid: { label: 'Slow to cool period', unit: 'min' },
  milk_duration: { label: 'Milking duration', unit: 'min' },
  collection_duration: { label: 'Collection duration', unit: 'hrs' },
  pick_up_alert: { label: 'Pick up alert', unit: 'min' },
};

/** Farmer §2.9: the Lite section for every package, the Pro section for Vat-Man Pro and Auto. */
export const LITE_FIELDS = ['milk_warm_plate', 'milk_cold', 'milk_volume'] as const satisfies readonly AlertSettingField[];
export const PRO_FIELDS = ['milk_slow_temp', 'milk_slow_peroid', 'milk_duration', 'collection_duration', 'pick_up_alert'] as const satisfies readonly AlertSettingField[];

/**
 * Controller labels. Farmer §2.9: the last two are swapped against the field order — the rinse
 * duration is `pro_cip_cycle`, the CIP on duration is `pro_cip_delay` (as the §9 defaults and
 * the controller read them).
 */
export const AUTO_SETTING_LABELS: Readonly<Record<AutoSettingField, FieldLabel>> = {
  pro_refrige_level_on_basepad: { label: 'Basepad level', unit: 'mm' },
  pro_refrige_level_on_sidewall: { label: 'Sidewall level', unit: 'mm' },
  pro_refrige_temp_on: { label: 'Fridge on temperature', unit: '°C' },
  pro_refrige_temp_off: { label: 'Fridge off temperature', unit: '°C' },
  pro_refrige_agitator_on_delay: { label: 'Manual override delay', unit: 'min' },
  pro_refrige_duration_on: { label: 'Fallback fridge on duration', unit: 'min' },
  pro_refrige_duration_off: { label: 'Fallback fridge off duration', unit: 'min' },
  pro_cip_cycle: { label: 'Rinse duration', unit: 'min' },
  pro_cip_delay: { label: 'CIP on duration', unit: 'min' },
};
