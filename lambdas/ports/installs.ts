import type { InstallLogEntry, LogType, Unit } from '../../shared/entities/install';

/**
 * The installer's records in the Farms table (docs/architecture.md, "Installer tools"): each
 * farm's controller unit (`UNIT#<imei>`, found by farm through gsi1) and the install log
 * (`INSTALL#<supply number>`, every farm's through gsi1 `ALL#INSTALL`).
 */
export interface InstallRepository {
  getUnit(imei: string): Promise<Unit | undefined>;
  /** The farm's unit (a farm has one: up to 4 vats on one board). */
  unitOfFarm(farmId: string): Promise<Unit | undefined>;
  putUnit(unit: Unit): Promise<void>;
  deleteUnit(imei: string): Promise<void>;
  putEntry(entry: InstallLogEntry): Promise<void>;
  /**
   * One page of the log, newest first: one farm's entries (supply number) or every farm's, of one
   * log type; `count` is how many match in all.
   */
  listEntries(q: { supplyNumber?: string; logType: LogType; page: number; pageSize: number }): Promise<{ count: number; installs: InstallLogEntry[] }>;
}
