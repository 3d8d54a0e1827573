/** Business constants of spec §9 (both documents). */
export const DASHBOARD_REFRESH_MS = 120_000;
export const DEFAULT_RANGE_DAYS = 2;
export const MAX_RANGE_DAYS = 30;
export const PAGING_STEP_DAYS = 2;
export const CHART_HEIGHT = 300;
export const CHART_POINT_CAP = 10_000;
export const OUTAGE_GAP_MINUTES = 15;
export const POWER_OUTAGE_ALERT_MINUTES = 5;
export const VAT_LEVEL_ALERT_PERCENT = 80;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 50;
export const PHONE_MIN = 9;
export const COOKIE_YEARS = 100;
/** The help player starts playing this long after it opens (farmer §9). */
export const HELP_PLAYER_START_MS = 3_000;
export const SNACKBAR_HIDE_MS = 6_000;
export const RAW_ARCHIVE_DAYS = 30;

/** SMS totals per month (farmer §2.12, §9). */
export const smsTotalFor = (pkg: string): number => (pkg === 'Vat-Man Pro' || pkg === 'Vat-Man Auto' ? 120 : 60);

/** Watchman defaults (operator §9, from the helper text). */
export const WATCHMAN_DEFAULTS = {
  on_status: true,
  recent_install_weeks: 2,
  dried_off_days: 4,
  fault_check_days: 3,
  minimum_data_points: 12,
  minimum_signal_strength_alone: 15,
  minimum_signal_strength: 20,
  minimum_signal_quality: 55,
  maximum_disconnects: 200,
  minimum_temp_probe_temp: -20,
  maximum_temp_probe_temp: 100,
  temp_accuracy_threshold: 1.5,
  minimum_agitator_probe_fault_threshold: 30,
  maximum_agitator_probe_fault_threshold: 100,
  auto_turn_fonterra_sync_on: true,
  auto_turn_fonterra_sync_off: true,
  calibration_days: 30,
  matching_pickup_minutes: 30,
  minimum_matched_collections: 3,
} as const;
