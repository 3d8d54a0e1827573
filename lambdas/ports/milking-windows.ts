/**
 * The farms' milking windows (operator §2 settings table, §3 Farm settings row): one item beside
 * each farm (`FARM#<id>` / `MILKING_WINDOW`), written by the admin CSV import.
 */
export interface MilkingWindow {
  readonly farm_id: string;
  readonly fonterra_id: string;
  /** Minutes. */
  readonly buffer_duration: number;
  /** Farm-local time of day, HH:mm. */
  readonly end_of_milking: string;
  readonly updated_at: string;
  readonly updated_by: string;
}

export interface MilkingWindowsRepository {
  /** The windows of these farms (farms without one are left out). */
  list(farmIds: readonly string[]): Promise<MilkingWindow[]>;
  put(window: MilkingWindow): Promise<void>;
}
