import { PREFERENCE_OF_TYPE, type PreferenceKey } from '@shared/alerts/preferences';
import { NOTIFICATION_TYPES, type NotificationType } from '@shared/alerts/types';

interface PreferenceGroup {
  readonly title: string;
  readonly rows: readonly PreferenceKey[];
}

/** Farmer §2.11: four groups of the §3 Alert setting rows. */
export const PREFERENCE_GROUPS: readonly PreferenceGroup[] = [
  { title: 'Vat-Man Lite alerts', rows: ['power_outage', 'agitator_stopped', 'milk_warm', 'milk_warm_plate', 'milk_cold', 'milk_volume', 'milk_online_offline', 'cooling_at_risk', 'vat_tanker_difference'] },
  { title: 'Vat-Man Pro alerts', rows: ['pro_slow_to_cold_temp', 'pro_slow_to_cold_period', 'pro_pick_up', 'pro_milking_duration', 'pro_collection_duration'] },
  { title: 'Vat-Man Auto alerts', rows: ['auto_unknown', 'auto_manual', 'auto_off'] },
  { title: 'Other monitoring', rows: ['water', 'effluent', 'land', 'weather'] },
  { title: 'Forecasts', rows: ['vat_full_before_pickup'] },
];

/** A row's label and the line its info popover opens with. */
export const PREFERENCE_TEXT: Readonly<Record<PreferenceKey, { readonly label: string; readonly info: string }>> = {
  power_outage: { label: 'Power outage', info: 'Mains power to the monitor has been off for 5 minutes.' },
  agitator_stopped: { label: 'Agitator stopped', info: 'The agitator has stayed stopped with milk in the vat.' },
  milk_warm: { label: 'Milk too warm', info: 'The milk is not cooled to 10 °C or 6 °C in time, or warms up again.' },
  milk_warm_plate: { label: 'Plate cooler too warm', info: 'The milk leaving the plate cooler is warmer than your Too warm setting.' },
  milk_cold: { label: 'Milk too cold', info: 'The milk is colder than your Too cold setting.' },
  milk_volume: { label: 'Vat volume', info: 'The vat is fuller than your Volume level setting.' },
  milk_online_offline: { label: 'Monitor online/offline', info: 'The monitor has sent nothing for 15 minutes, or is back online.' },
  pro_slow_to_cold_temp: { label: 'Slow to cool temperature', info: 'The milk is still above your slow to cool temperature. Slow to cool goes out only while both of its rows are on.' },
  pro_slow_to_cold_period: { label: 'Slow to cool period', info: 'The milk is not cooled within your slow to cool period. Slow to cool goes out only while both of its rows are on.' },
  pro_pick_up: { label: 'Pick up', info: 'The milk has been picked up.' },
  pro_milking_duration: { label: 'Milking duration', info: 'A milking took much longer or shorter than usual.' },
  pro_collection_duration: { label: 'Collection duration', info: 'A collection has not finished within the estimated time.' },
  auto_unknown: { label: 'Vat control status unknown', info: 'The Vat-Man Auto controller does not report its status.' },
  auto_manual: { label: 'Manual override', info: 'The Vat-Man Auto controller is on manual override.' },
  auto_off: { label: 'Off position', info: 'The Vat-Man Auto controller is switched off.' },
  water: { label: 'Water', info: 'Alerts from your water monitoring.' },
  effluent: { label: 'Effluent', info: 'Alerts from your effluent monitoring.' },
  land: { label: 'Land', info: 'Alerts from your land (soil) monitoring.' },
  weather: { label: 'Weather', info: 'Alerts from your weather station.' },
  cooling_at_risk: { label: 'Cooling at risk', info: 'The cooling curve after a milking predicts the milk will miss a 10 °C or 6 °C cooling deadline.' },
  vat_full_before_pickup: { label: 'Vat will be full before pickup', info: 'The forecast from your milkings says the vat fills before the tanker usually comes.' },
  vat_tanker_difference: {
    label: 'Vat reading differs from tanker',
    info: "The vat's readings of the last 5 collections differ from the tanker's by over 3 %: ask for a vat calibration.",
  },
};

/** The alert types a row governs (shared/alerts/preferences.ts, the notifier's own mapping). */
export const typesOf = (key: PreferenceKey): string[] =>
  (Object.keys(PREFERENCE_OF_TYPE).map(Number) as NotificationType[])
    .filter((t) => PREFERENCE_OF_TYPE[t].includes(key))
    .map((t) => `${t} ${NOTIFICATION_TYPES[t]}`);
