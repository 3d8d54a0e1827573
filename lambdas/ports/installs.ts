import type { Device } from '../../shared/entities/device';
import type { Farm, Package } from '../../shared/entities/farm';
import type { InstallLogEntry, LogType, Unit } from '../../shared/entities/install';
import type { NewInstallVat } from '../../shared/api/actions/installer';

/** What a new install makes, as the installer sent it (the run keeps it, so a retry or the reconciler makes the same install). */
export interface InstallPlan {
  readonly imei: string;
  readonly supplyNumber: string;
  readonly dairySupplier: string;
  readonly productVariant: Package;
  readonly numVats: number;
  readonly numDisplays: number;
  readonly lowConnectivity: boolean;
  readonly timezone: string;
  readonly vats: readonly NewInstallVat[];
  /** Who asked, for the install log. */
  readonly installerName: string;
}

/**
 * A unit's workflow record (docs/decisions/040-install-workflow-table-driven.md): one per IMEI
 * (`INSTALLRUN#<imei>`), `kind` install or reissue. `step` counts the steps done of the kind's
 * table; `state` says which way the run goes; `lease_until` is when the invocation holding it is
 * certainly gone (the function's timeout), after which a retry or the reconciler may take it over.
 * `version` makes every save conditional on the one read, so two invocations never both act.
 */
export interface InstallRun {
  readonly imei: string;
  readonly kind: 'install' | 'reissue';
  readonly request_id: string;
  readonly state: 'running' | 'undoing' | 'done';
  readonly step: number;
  readonly version: number;
  readonly lease_until: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly plan?: InstallPlan;
  /** The certificate this run made (its private key lived only in the invocation that made it). */
  readonly certificate?: { readonly id: string; readonly arn: string };
  /** A reissue's certificate being replaced (the unit's when the reissue began). */
  readonly old_certificate?: string;
  /** A reissue's supply number and installer, for its log entry. */
  readonly supply_number?: string;
  readonly installer_name?: string;
  /** The last error, for the operator reading the run. */
  readonly error?: string;
}

/**
 * The installer's records in the Farms table (docs/architecture.md, "Installer tools"): each
 * farm's controller unit (`UNIT#<imei>`, found by farm through gsi1), the install log
 * (`INSTALL#<supply number>`, every farm's through gsi1 `ALL#INSTALL`), and the install workflow's
 * runs and supply-number claims. The workflow's writes of farms, devices and units are
 * conditional on the run's request id, so of two installs only one writes, and an undo deletes
 * only what its own run wrote.
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

  /** The unit's run of a kind, if any (read consistently: the run is the lock). */
  getRun(imei: string, kind: InstallRun['kind']): Promise<InstallRun | undefined>;
  /** Starts a run: false when the unit already has one of the kind. */
  createRun(run: InstallRun): Promise<boolean>;
  /** Saves a run as `version + 1` when it is still at `run.version`: false when another invocation saved it first. */
  saveRun(run: InstallRun): Promise<InstallRun | undefined>;
  /** Ends a run (its version must still be `run.version`). */
  deleteRun(run: InstallRun): Promise<boolean>;
  /** Runs not done whose lease ended before `before`: the reconciler's work. */
  listStaleRuns(before: string): Promise<InstallRun[]>;
  /** Claims the supply number for an install (`request` of `imei`): false when another install holds it. */
  claimSupply(supplyNumber: string, imei: string, request: string): Promise<boolean>;
  releaseSupply(supplyNumber: string, request: string): Promise<void>;
  /** Creates the farm unless one with its id exists that another request made: false then. */
  createFarm(farm: Farm, request: string): Promise<boolean>;
  createDevice(device: Device, request: string): Promise<boolean>;
  createUnit(unit: Unit, request: string): Promise<boolean>;
  /** The unit's certificate replaced, when it is still `from`: false when another reissue moved it first. */
  swapCertificate(imei: string, from: string | undefined, to: string): Promise<boolean>;
  /** Deletes what `request` created (each only if that request made it). */
  removeFarm(farmId: string, request: string): Promise<void>;
  removeDevice(device: Pick<Device, '_id' | 'name'>, request: string): Promise<void>;
  removeUnit(imei: string, request: string): Promise<void>;
}
